import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeUpstream, fixture, startFakeUpstream } from '../fake-upstream/fake-upstream';
import { type CheckResult, expectPassed, runCheckScriptAsync, venvPresent } from '../helpers/python-clients';
import { type RunningValve, startValve } from '../helpers/start-valve';

// The official `openai` Python SDK in a Claude-with-extended-thinking tool loop: the assistant message
// goes back as `message.model_dump()` and as `message.to_dict()`, and Claude must get its thinking
// block back, signature and all (test/clients/openai_sdk_checks.py, `reasoning` mode).

let valve: RunningValve;
let upstream: FakeUpstream;
let results: CheckResult[] = [];
const claudeToolUse = fixture('anthropic/thinking-tool-use.json') as {
  content: [{ thinking: string; signature: string }];
};

beforeAll(async () => {
  if (!venvPresent) return;
  upstream = await startFakeUpstream();
  const loop = [
    { type: 'json' as const, body: claudeToolUse },
    { type: 'json' as const, body: fixture('anthropic/text.json') },
  ];
  upstream.script('claude', [...loop, ...loop]);
  valve = await startValve({
    catalog: {
      providers: [
        {
          id: 'claude',
          kind: 'anthropic',
          baseUrl: `${upstream.url}/claude/v1`,
          apiKeyEnv: 'ANTHROPIC_API_KEY',
        },
      ],
      models: [
        {
          provider: 'claude',
          model: 'claude-sonnet-4-6',
          regions: ['lab'],
          priceUsdPerMTok: { input: 3, output: 15 },
          quality: 80,
          latency: { ttftMsP50: 40, ttftMsP90: 80, outputTokensPerSec: 400 },
          contextTokens: 200_000,
          maxOutputTokens: 32_000,
          capabilities: { tools: true, json: 'native', reasoning: true, base64Data: false },
          reasoning: {
            control: 'budget',
            minBudgetTokens: 1024,
            canDisable: true,
            defaultOn: false,
            billedAsOutput: true,
          },
          maxPrivacy: 'confidential',
        },
      ],
    },
    vars: { ANTHROPIC_API_KEY: 'sk-ant-test' },
  });
  results = await runCheckScriptAsync('openai_sdk_checks.py', [
    `${valve.url}/openai/v1`,
    valve.key,
    'reasoning',
  ]);
}, 150_000);

afterAll(async () => {
  await valve?.stop();
  await upstream?.close();
});

describe.skipIf(!venvPresent)('the openai Python SDK (3.60.0) in a tool loop with thinking', () => {
  it.each(['model_dump round trip with reasoning', 'to_dict round trip with reasoning'])('%s', (name) =>
    expectPassed(results, name),
  );

  it('sent Claude its thinking block back, signature and all, from the dumped message', () => {
    const bodies = upstream
      .arrivals('claude')
      .map((a) => a.body as { messages: { role: string; content: unknown[] }[] });
    expect(bodies).toHaveLength(4);
    for (const second of [bodies[1], bodies[3]]) {
      const assistant = second?.messages.find((m) => m.role === 'assistant');
      expect(assistant?.content[0]).toEqual({
        type: 'thinking',
        thinking: claudeToolUse.content[0].thinking,
        signature: claudeToolUse.content[0].signature,
      });
    }
  });
});
