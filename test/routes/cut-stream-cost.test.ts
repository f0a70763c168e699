import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { reasonRequestSchema } from '../../src/contracts/reason-request';
import { reasonResponseSchema } from '../../src/contracts/reason-response';
import type { VerifyReport } from '../../src/contracts/receipt-bodies';
import { resetHealthCache } from '../../src/health/health-client';
import { type HealthRecord, healthKey } from '../../src/health/health-types';
import type { ModelHealth } from '../../src/health/model-health';
import { estimateTokens } from '../../src/model/estimate-tokens';
import type { Catalog } from '../../src/policy/catalog';
import { buildDisclosure } from '../../src/receipts/disclose';
import { adminToken, call, createKey, postJson } from '../helpers/api';
import { simModel } from '../helpers/catalog-fixtures';
import { readStream, type StreamEventLike, terminalOf } from '../helpers/read-stream';
import { streamWithCatalog } from '../helpers/stream-call';

// Providers that stream their whole answer in one large delta (Gemini does; any provider does for a short
// JSON answer), on all three wire formats, with and without a usage report. The answer keeps to the
// max_tokens the provider was given, by its own count, which is under Valve's conservative estimate: the
// one delta "crosses" Valve's cap although the provider billed within it. What Valve records (answer,
// trace, usage record, tenant spend) must be at least what the provider billed, at the catalog's prices.

type Kind = 'openai' | 'anthropic' | 'gemini';
const kinds: Kind[] = ['openai', 'anthropic', 'gemini'];
const price = { input: 10, output: 50 };
const usdOf = (inputTokens: number, outputTokens: number) =>
  (inputTokens * price.input + outputTokens * price.output) / 1e6;
const salt = 'Y3V0c3RyZWFtY3V0c3RyZWFtY3V0c3RyZWFtY3V0c3RyZWFt';

function catalogOf(kind: Kind): Catalog {
  return {
    providers: [{ id: `${kind}-wire`, kind, apiKeyEnv: 'PROVIDER_WIRE_KEY' }],
    models: [
      simModel(`one-delta-${kind}`, {
        provider: `${kind}-wire`,
        simulate: undefined,
        priceUsdPerMTok: price,
        capabilities: {
          tools: true,
          json: kind === 'anthropic' ? 'tool' : 'native',
          reasoning: false,
          base64Data: false,
        },
      }),
    ],
  };
}

/** What the provider wrote and billed for one call. */
interface Answer {
  text: string;
  /** The provider's own count of `text`: what it bills. */
  outputTokens: number;
  finish: 'stop' | 'length';
}
interface Billed {
  maxTokens: number;
  inputTokens: number;
  outputTokens: number;
}

/** Every string the provider reads as prompt text, counted as Valve counts it (at most what Valve plans for). */
function promptTokensOf(wire: unknown): number {
  const skip = new Set(['tools', 'tool_choice', 'response_format', 'generationConfig']);
  let tokens = 0;
  const walk = (node: unknown, key: string | undefined) => {
    if (typeof node === 'string') {
      if (key === 'text' || key === 'content' || key === 'system') tokens += estimateTokens(node);
    } else if (Array.isArray(node)) {
      for (const child of node) walk(child, key);
    } else if (node !== null && typeof node === 'object') {
      for (const [k, child] of Object.entries(node)) if (!skip.has(k)) walk(child, k);
    }
  };
  walk(wire, undefined);
  return tokens;
}

function maxTokensOf(kind: Kind, wire: Record<string, unknown>): number {
  if (kind === 'gemini') return (wire.generationConfig as { maxOutputTokens: number }).maxOutputTokens;
  return Number(wire.max_completion_tokens ?? wire.max_tokens);
}

const frame = (data: unknown, event?: string) =>
  `${event ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`;

/** The whole answer as one delta, then the finish (and the usage, when the provider reports it). */
function sseOf(kind: Kind, answer: Answer, json: boolean, usage?: { input: number; output: number }): string {
  if (kind === 'openai') {
    const chunk = (delta: unknown, finish: string | null) => ({
      id: 'c',
      object: 'chat.completion.chunk',
      model: 'm',
      choices: [{ index: 0, delta, finish_reason: finish }],
    });
    return [
      frame(chunk({ role: 'assistant', content: answer.text }, null)),
      frame(chunk({}, answer.finish)),
      usage &&
        frame({
          id: 'c',
          object: 'chat.completion.chunk',
          model: 'm',
          choices: [],
          usage: {
            prompt_tokens: usage.input,
            completion_tokens: usage.output,
            total_tokens: usage.input + usage.output,
          },
        }),
      frame('[DONE]'),
    ].join('');
  }
  if (kind === 'anthropic') {
    const an = (type: string, data: Record<string, unknown>) => frame({ type, ...data }, type);
    const block = json
      ? { type: 'tool_use', id: 'toolu_1', name: 'json_output', input: {} }
      : { type: 'text', text: '' };
    const delta = json
      ? { type: 'input_json_delta', partial_json: answer.text }
      : { type: 'text_delta', text: answer.text };
    const stop = answer.finish === 'length' ? 'max_tokens' : json ? 'tool_use' : 'end_turn';
    return [
      an('message_start', {
        message: {
          id: 'msg_1',
          type: 'message',
          role: 'assistant',
          model: 'm',
          content: [],
          ...(usage && { usage: { input_tokens: usage.input, output_tokens: 1 } }),
        },
      }),
      an('content_block_start', { index: 0, content_block: block }),
      an('content_block_delta', { index: 0, delta }),
      an('content_block_stop', { index: 0 }),
      an('message_delta', {
        delta: { stop_reason: stop },
        ...(usage && { usage: { output_tokens: usage.output } }),
      }),
      an('message_stop', {}),
    ].join('');
  }
  return frame({
    candidates: [
      {
        content: { role: 'model', parts: [{ text: answer.text }] },
        finishReason: answer.finish === 'length' ? 'MAX_TOKENS' : 'STOP',
      },
    ],
    ...(usage && {
      usageMetadata: {
        promptTokenCount: usage.input,
        candidatesTokenCount: usage.output,
        totalTokenCount: usage.input + usage.output,
      },
    }),
  });
}

/** A fake upstream of `kind`: each call answers `script(maxTokens, call)` and bills it. */
function oneDeltaUpstream(
  kind: Kind,
  reportsUsage: boolean,
  json: boolean,
  script: (maxTokens: number, call: number) => Answer,
): Billed[] {
  const billed: Billed[] = [];
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (_input, init) => {
    const wire = JSON.parse(String(init?.body)) as Record<string, unknown>;
    const maxTokens = maxTokensOf(kind, wire);
    const answer = script(maxTokens, billed.length);
    const inputTokens = promptTokensOf(wire);
    billed.push({ maxTokens, inputTokens, outputTokens: answer.outputTokens });
    const usage = reportsUsage ? { input: inputTokens, output: answer.outputTokens } : undefined;
    return new Response(sseOf(kind, answer, json, usage), {
      headers: { 'content-type': 'text/event-stream' },
    });
  });
  return billed;
}

/** `n` words the provider counts as one token each and Valve, conservatively, as two. */
function words(n: number): string {
  return Array.from({ length: n }, () => 'lorem').join(' ');
}

const billedUsdOf = (billed: Billed[]) =>
  billed.reduce((sum, b) => sum + usdOf(b.inputTokens, b.outputTokens), 0);

interface Streamed {
  events: StreamEventLike[];
  terminal: StreamEventLike;
  response: ReturnType<typeof reasonResponseSchema.parse>;
}

async function streamed(kind: Kind, tenant: string, body: Record<string, unknown>): Promise<Streamed> {
  const { key } = await createKey(tenant, ['reason']);
  const { res, settled } = await streamWithCatalog(catalogOf(kind), key, body, 'text/event-stream', {
    PROVIDER_WIRE_KEY: 'k',
  });
  expect(res.status).toBe(200);
  const events = await readStream(res);
  await settled();
  const terminal = terminalOf(events);
  expect(terminal.type, JSON.stringify(terminal)).not.toBe('response.error');
  // `valve-verify disclose` parses the answer with this schema before it builds a bundle.
  const response = reasonResponseSchema.parse(terminal.response);
  return { events, terminal, response };
}

async function capTenant(tenant: string, capUsd: number) {
  const put = await call(`/v1/admin/tenants/${tenant}/budget`, {
    method: 'PUT',
    headers: { Authorization: `Bearer ${adminToken}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ monthlyCapUsd: capUsd }),
  });
  expect(put.status).toBe(200);
}

async function usageRecordOf(tenant: string) {
  return env.DB.prepare('SELECT cost_usd, output_tokens FROM usage_records WHERE tenant = ?')
    .bind(tenant)
    .first<{ cost_usd: number; output_tokens: number }>();
}

async function healthOf(kind: Kind) {
  const snapshot = await env.MODEL_HEALTH.getByName('global').snapshot();
  return snapshot.models[healthKey(`${kind}-wire`, `one-delta-${kind}`)];
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('a streamed answer sent in one delta that crosses Valve’s cap', () => {
  for (const kind of kinds) {
    for (const reportsUsage of [false, true]) {
      const variant = `${kind}, ${reportsUsage ? 'with' : 'without'} a usage report`;
      it(`${variant}: records at least what the provider billed`, async ({ annotate }) => {
        const maxCostUsd = 0.05;
        // The provider writes up to its max_tokens, by its own count, in one delta, and stops there.
        const billed = oneDeltaUpstream(kind, reportsUsage, false, (maxTokens) => ({
          text: words(maxTokens),
          outputTokens: maxTokens,
          finish: 'length',
        }));
        const tenant = `cut-${kind}-${reportsUsage ? 'usage' : 'bare'}`;
        await capTenant(tenant, 1);
        const request = {
          task: 'write',
          instructions: 'Write a long essay.',
          receiptSalt: salt,
          modelPolicy: { maxCostUsd, allowFallback: false },
        };
        const { response } = await streamed(kind, tenant, request);
        const billedUsd = billedUsdOf(billed);
        const attempts = response.decision.attempts;
        const traced = attempts.reduce((sum, a) => sum + a.costUsd, 0);
        const record = await usageRecordOf(tenant);
        const spent = (await env.TENANT_BUDGET.getByName(tenant).status()).spentUsd;
        await annotate(
          `billed $${billedUsd.toFixed(5)}; recorded $${response.costUsd.toFixed(5)} (trace $${traced.toFixed(5)}, usage record $${record?.cost_usd.toFixed(5)}, tenant $${spent.toFixed(5)})`,
        );
        expect(billed).toHaveLength(1);
        expect(response.costUsd).toBeGreaterThanOrEqual(billedUsd);
        expect(traced).toBeGreaterThanOrEqual(billedUsd);
        expect(record?.cost_usd).toBeGreaterThanOrEqual(billedUsd);
        expect(spent).toBeGreaterThanOrEqual(billedUsd);
        expect(response.usage.outputTokens).toBeGreaterThanOrEqual(billed[0]?.outputTokens ?? 0);
        // The provider kept to max_tokens, so nothing is over the caller's own cap either.
        expect(response.costUsd).toBeLessThanOrEqual(maxCostUsd);
        const health = await healthOf(kind);
        expect(health?.outputTokensPerSec).not.toBe(0);
      });
    }
  }
});

describe('a stream that crosses Valve’s cap and does not finish', () => {
  it('is counted at the attempt’s worst case when it breaks off right after the crossing delta', async () => {
    const kind: Kind = 'openai';
    const sent: Billed[] = [];
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (_input, init) => {
      const wire = JSON.parse(String(init?.body)) as Record<string, unknown>;
      const maxTokens = maxTokensOf(kind, wire);
      sent.push({ maxTokens, inputTokens: promptTokensOf(wire), outputTokens: maxTokens });
      const chunk = {
        id: 'c',
        object: 'chat.completion.chunk',
        model: 'm',
        choices: [{ index: 0, delta: { content: words(maxTokens) }, finish_reason: null }],
      };
      // No finish reason, no usage, no [DONE]: the body simply ends.
      return new Response(frame(chunk), { headers: { 'content-type': 'text/event-stream' } });
    });
    const { response } = await streamed(kind, 'cut-broken', {
      task: 'write',
      instructions: 'Write a long essay.',
      modelPolicy: { maxCostUsd: 0.05, allowFallback: false },
    });
    const billedUsd = billedUsdOf(sent);
    const attempt = response.decision.attempts[0];
    expect(response.costUsd).toBeGreaterThanOrEqual(billedUsd);
    expect(attempt?.usage?.outputTokens ?? response.usage.outputTokens).toBeGreaterThanOrEqual(
      attempt?.maxTokens ?? Number.POSITIVE_INFINITY,
    );
    expect(response.warnings.map((w) => w.code)).toContain('model.over_budget');
  });
});

describe('a JSON answer sent in one delta, repaired once', () => {
  const schema = {
    type: 'object',
    properties: { answer: { type: 'string' } },
    required: ['answer'],
    additionalProperties: false,
  };
  for (const kind of kinds) {
    for (const reportsUsage of [false, true]) {
      const variant = `${kind}, ${reportsUsage ? 'with' : 'without'} a usage report`;
      it(`${variant}: plans the repair from what the first attempt billed, and records it all`, async ({
        annotate,
      }) => {
        const maxCostUsd = 0.05;
        // Each answer fills most of its max_tokens; the first breaks the schema, the repair is valid.
        const billed = oneDeltaUpstream(kind, reportsUsage, true, (maxTokens, n) =>
          n === 0
            ? {
                text: JSON.stringify({ notes: words(Math.floor(maxTokens * 0.9)) }),
                outputTokens: Math.floor(maxTokens * 0.9) + 6,
                finish: 'stop',
              }
            : {
                text: JSON.stringify({ answer: words(Math.floor(maxTokens * 0.9)) }),
                outputTokens: Math.floor(maxTokens * 0.9) + 6,
                finish: 'stop',
              },
        );
        const tenant = `cut-json-${kind}-${reportsUsage ? 'usage' : 'bare'}`;
        const { key } = await createKey(tenant, ['reason']);
        const { res, settled } = await streamWithCatalog(
          catalogOf(kind),
          key,
          {
            task: 'extract',
            instructions: 'Answer with the JSON the schema asks for.',
            output: { format: 'json', schema },
            modelPolicy: { maxCostUsd, allowFallback: false },
          },
          'text/event-stream',
          { PROVIDER_WIRE_KEY: 'k' },
        );
        const events = await readStream(res);
        await settled();
        const terminal = terminalOf(events) as {
          response?: { costUsd: number };
          error?: { details?: { decision?: { attempts: { costUsd: number }[] } } };
        };
        const attempts = terminal.error?.details?.decision?.attempts ?? [];
        const recorded =
          terminal.response?.costUsd ?? attempts.reduce((sum, attempt) => sum + attempt.costUsd, 0);
        const record = await usageRecordOf(tenant);
        const billedUsd = billedUsdOf(billed);
        await annotate(
          `${billed.length} call(s) billed $${billedUsd.toFixed(5)}; recorded $${recorded.toFixed(5)} (usage record $${record?.cost_usd.toFixed(5)})`,
        );
        expect(recorded).toBeGreaterThanOrEqual(billedUsd);
        expect(record?.cost_usd).toBeGreaterThanOrEqual(billedUsd);
        // Planned from an honest count, the calls never bill past the caller's cap.
        expect(billedUsd).toBeLessThanOrEqual(maxCostUsd);
      });
    }
  }
});

describe('health and the answer after attempts that count no output', () => {
  it('keeps a model’s observed speed positive, its plan’s estimated latency a number, and its answer verifiable', async () => {
    const kind: Kind = 'gemini';
    oneDeltaUpstream(kind, true, false, (maxTokens) => ({
      text: words(maxTokens),
      outputTokens: maxTokens,
      finish: 'length',
    }));
    const request = reasonRequestSchema.parse({
      task: 'write',
      instructions: 'Write a long essay.',
      receiptSalt: salt,
      modelPolicy: { maxCostUsd: 0.05, allowFallback: false },
    });
    // Enough attempts for observed figures to replace the catalog's (health/apply-observation.ts).
    let last: Streamed | undefined;
    for (let i = 0; i < 6; i++) {
      last = await streamed(kind, 'cut-health', request);
      // The next request plans with the figures just recorded, not this isolate's cached copy.
      resetHealthCache();
    }
    const health = await healthOf(kind);
    expect(health?.samples).toBeGreaterThanOrEqual(5);
    expect(health?.outputTokensPerSec).toBeGreaterThan(0);
    const response = last?.response;
    if (!response) throw new Error('no answer');
    const planned = response.decision.plan[0];
    expect(planned?.speedSource).toBe('observed');
    expect(Number.isFinite(planned?.estLatencyMs)).toBe(true);
    const bundle = await buildDisclosure({ request, response, salt });
    const report = (await (await postJson('/v1/receipts/verify', bundle)).json()) as VerifyReport;
    expect(report.ok).toBe(true);
  }, 30_000);

  it('plans with a positive speed when shared health holds the zero speed such an attempt once recorded', async () => {
    const kind: Kind = 'openai';
    oneDeltaUpstream(kind, true, false, () => ({ text: words(20), outputTokens: 20, finish: 'stop' }));
    // The record a zero-token attempt left before the guards: enough samples, and a mean speed of 0.
    await runInDurableObject(env.MODEL_HEALTH.getByName('global'), (instance: ModelHealth) => {
      const records = (instance as unknown as { records: Map<string, HealthRecord> }).records;
      records.set(healthKey(`${kind}-wire`, `one-delta-${kind}`), {
        samples: 5,
        ttftMean: 20,
        ttftVar: 0,
        tpsMean: 0,
        errorRate: 0,
        consecutiveFailures: 0,
        updatedAt: Date.now(),
      });
    });
    resetHealthCache();
    const request = reasonRequestSchema.parse({
      task: 'write',
      instructions: 'Write a line.',
      receiptSalt: salt,
      modelPolicy: { maxCostUsd: 0.05, allowFallback: false },
    });
    const { response } = await streamed(kind, 'zero-speed', request);
    const planned = response.decision.plan[0];
    expect(planned?.speedSource).toBe('observed');
    expect(planned?.estLatencyMs).toBeGreaterThan(0);
    expect(Number.isFinite(planned?.estLatencyMs)).toBe(true);
    const bundle = await buildDisclosure({ request, response, salt });
    const report = (await (await postJson('/v1/receipts/verify', bundle)).json()) as VerifyReport;
    expect(report.ok).toBe(true);
  });
});
