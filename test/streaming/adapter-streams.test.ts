import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Catalog } from '../../src/policy/catalog';
import {
  anthropicScenarios,
  geminiScenarios,
  openaiScenarios,
  type Scenario,
  type ScenarioName,
} from '../fixtures/streams/scenarios';
import { createKey } from '../helpers/api';
import { simModel } from '../helpers/catalog-fixtures';
import { deltaText, readStream, refusalText, type StreamEventLike, terminalOf } from '../helpers/read-stream';
import { callWithCatalog } from '../helpers/with-catalog';

// Every HTTP adapter's fixture streams through the whole route (SSE and NDJSON), checked by the
// ordering checker, and assembled into the same Reason response as the JSON answer to the same fixture.

const adapters = {
  openai: { scenarios: openaiScenarios, keyEnv: 'OPENAI_API_KEY' },
  anthropic: { scenarios: anthropicScenarios, keyEnv: 'ANTHROPIC_API_KEY' },
  gemini: { scenarios: geminiScenarios, keyEnv: 'GEMINI_API_KEY' },
} as const;

function catalogFor(kind: keyof typeof adapters): Catalog {
  return {
    providers: [{ id: kind, kind, apiKeyEnv: adapters[kind].keyEnv }],
    models: [simModel(`${kind}-test`, { provider: kind, simulate: undefined })],
  };
}

const triageRequest = {
  task: 'triage',
  instructions: 'Look the ticket up and clean up its record.',
  context: [{ trust: 'untrusted', privacy: 'public', content: 'Ticket 4711: printer out of toner.' }],
  tools: [
    {
      name: 'lookup',
      description: 'Search tickets.',
      inputSchema: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] },
      annotations: { readOnly: true },
    },
    {
      name: 'delete_record',
      description: 'Delete a record.',
      inputSchema: { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] },
      annotations: { destructive: true },
    },
  ],
};

function frames(events: Scenario['sse']): string {
  return events
    .map(
      (e) =>
        `${e.event ? `event: ${e.event}\n` : ''}data: ${typeof e.data === 'string' ? e.data : JSON.stringify(e.data)}\n\n`,
    )
    .join('');
}

function replay(scenario: Scenario) {
  return vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const body = JSON.parse(String(init?.body ?? '{}')) as { stream?: boolean };
    const streaming = body.stream === true || String(input).includes('streamGenerateContent');
    return streaming
      ? new Response(frames(scenario.sse), { headers: { 'content-type': 'text/event-stream' } })
      : Response.json(scenario.json);
  });
}

/** The parts of a response that must agree between the JSON answer and the stream. */
/**
 * A call's capability token names its own receipt and time, so calls are compared without it; a call
 * has one exactly when it is not held for approval.
 */
function withoutCapability(toolCalls: unknown): unknown {
  return (toolCalls as Record<string, unknown>[]).map(({ capability, ...call }) => {
    expect(typeof capability).toBe(call.approval === undefined ? 'string' : 'undefined');
    return call;
  });
}

function comparable(response: Record<string, unknown>) {
  const decision = response.decision as Record<string, unknown>;
  return {
    output: response.output,
    toolCalls: withoutCapability(response.toolCalls),
    finishReason: response.finishReason,
    model: response.model,
    usage: response.usage,
    costUsd: response.costUsd,
    warnings: response.warnings,
    invalidToolCalls: decision.invalidToolCalls,
  };
}

afterEach(() => vi.restoreAllMocks());

describe('fixture streams of every HTTP adapter, through POST /v1/reason', () => {
  for (const kind of Object.keys(adapters) as (keyof typeof adapters)[]) {
    for (const name of Object.keys(adapters[kind].scenarios) as ScenarioName[]) {
      it(`${kind} ${name}: ordered events that assemble to the JSON answer`, async () => {
        const { key } = await createKey(`stream-${kind}-${name}`);
        replay(adapters[kind].scenarios[name]);
        const env = { [adapters[kind].keyEnv]: 'sk-test' };
        const post = (accept: string) =>
          callWithCatalog(
            catalogFor(kind),
            '/v1/reason',
            {
              method: 'POST',
              headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${key}`, Accept: accept },
              body: JSON.stringify(triageRequest),
            },
            env,
          );
        const json = await post('application/json');
        const sse = await post('text/event-stream');
        const ndjson = await post('application/x-ndjson');
        expect(sse.res.headers.get('content-type')).toMatch(/^text\/event-stream/);
        expect(ndjson.res.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
        const events = await readStream(sse.res);
        const lines = await readStream(ndjson.res);
        await Promise.all([json.settled(), sse.settled(), ndjson.settled()]);
        const strip = (e: StreamEventLike[]) => e.map(({ type }) => type);
        expect(strip(lines)).toEqual(strip(events));
        const answer = (await json.res.json()) as Record<string, unknown>;
        const terminal = terminalOf(events);
        // A refusal is an answer from every adapter, never a content_filter failure.
        if (name === 'refusal') expect(json.res.status).toBe(200);
        if (json.res.status !== 200) {
          // A failure fails both ways, before any content.
          const error = answer.error as { code: string };
          expect(terminal.type).toBe('response.error');
          expect((terminal.error as { code: string }).code).toBe(error.code);
          expect(terminal.emittedDeltas).toBe(false);
          return;
        }
        expect(events[0]?.type).toBe('response.created');
        expect(terminal.type).toBe('response.completed');
        const streamed = terminal.response as Record<string, unknown>;
        expect(comparable(streamed)).toEqual(comparable(answer));
        const output = streamed.output as { format: string; text?: string; refusal?: string };
        if (output.format === 'refusal') {
          // The refusal streams as its own deltas, never as answer text.
          expect(deltaText(events)).toBe('');
          expect(refusalText(events)).toBe(output.refusal);
        } else expect(deltaText(events)).toBe(output.text);
        // The tool calls the caller saw complete are exactly the response's tool calls.
        const completed = events.filter((e) => e.type === 'response.tool_call.completed');
        expect(completed.map((e) => [e.call_id, JSON.parse(String(e.arguments))])).toEqual(
          (streamed.toolCalls as { id: string; arguments: unknown }[]).map((c) => [c.id, c.arguments]),
        );
        if (name === 'tools') {
          // Tainted (untrusted context); the destructive tool asks for approval; the bad call is an error.
          const [lookup, remove] = streamed.toolCalls as Record<string, unknown>[];
          expect(lookup).toMatchObject({ name: 'lookup', tainted: true });
          expect(lookup?.approval).toBeUndefined();
          expect(remove?.approval).toEqual({
            call_id: 'call_b',
            tool: 'delete_record',
            args: { id: 7 },
            description: expect.any(String),
            allowed: ['approve', 'edit', 'reject', 'respond'],
          });
          const failed = events.filter((e) => e.type === 'response.tool_call.error');
          expect(failed.map((e) => [e.call_id, (e.error as { code: string }).code])).toEqual([
            ['call_c', 'tool.invalid_arguments'],
          ]);
          expect((streamed.decision as { invalidToolCalls: unknown[] }).invalidToolCalls).toHaveLength(1);
        }
        if (name === 'reasoning') {
          // Thinking streams as reasoning, never as the answer, and the answer keeps it whole.
          const thinking = events.flatMap((e) =>
            e.type === 'response.reasoning.delta' ? [String(e.delta)] : [],
          );
          expect(thinking.join('')).toBe('The user asks about a ticket.');
          expect(deltaText(events)).not.toContain('The user asks');
          expect((streamed.reasoning as { text?: string }[] | undefined)?.[0]?.text).toBe(
            'The user asks about a ticket.',
          );
        }
        if (name === 'refusal') {
          // OpenAI says no in its own words; Claude and Gemini only by their reason, which Valve names.
          const words = {
            openai: 'I can’t help with that.',
            anthropic: 'anthropic declined to answer (refusal).',
            gemini: 'gemini declined to answer (SAFETY).',
          };
          expect(streamed.output).toEqual({ format: 'refusal', refusal: words[kind] });
          expect(streamed.finishReason).toBe('content_filter');
          const types = strip(events);
          expect(types.indexOf('response.refusal.delta')).toBeGreaterThan(types.indexOf('response.created'));
          expect(types.at(-1)).toBe('response.completed');
        }
      });
    }
  }
});
