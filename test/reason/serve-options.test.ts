import { describe, expect, it } from 'vitest';
import type { ReasonRequest } from '../../src/contracts/reason-request';
import { ApiError } from '../../src/errors';
import type { Catalog } from '../../src/policy/catalog';
import { abortableSleep } from '../../src/providers/abortable-sleep';
import type { ReasonDeps } from '../../src/reason/prepare-reason';
import { type ServeDeps, type ServeOptions, serveAnswer, serveEvents } from '../../src/reason/serve-reason';
import type { UsageRecord } from '../../src/storage/usage-records';
import type { StreamEvent } from '../../src/streaming/stream-events';
import { catalogOf, simModel } from '../helpers/catalog-fixtures';

// The options a door in front of the Reason request passes to serve-reason: the route of its usage
// records, the privacy of its messages as a planning input, its untrusted user turns, the parts its
// instructions came from, and the stream's receipt id before the first event. POST /v1/reason passes
// none and keeps its meaning.

const catalog = catalogOf([
  simModel('open-model', { quality: 90, maxPrivacy: 'internal' }),
  simModel('closed-model', { quality: 40, maxPrivacy: 'restricted' }),
]);

function serveDeps(cat: Catalog, usage: UsageRecord[]): ServeDeps {
  const deps: ReasonDeps = {
    catalog: cat,
    notConfigured: () => undefined,
    secret: () => undefined,
    fetch: (() => Promise.reject(new Error('no network'))) as typeof fetch,
    now: () => performance.now(),
    startedAt: performance.now(),
    randomHex: (bytes) => '0f'.repeat(bytes),
    sleep: abortableSleep,
    random: () => 0.5,
  };
  return {
    caller: { keyId: 'k', tenant: 't', scopes: ['reason'], rateLimitPerMinute: null },
    requestId: 'r',
    arrivedAt: 0,
    issuance: {
      claim: async (request) => {
        if (request.receiptId !== undefined) throw new Error('these requests carry no receiptId');
        return {};
      },
      issuer: () => async () => ({ jws: 'jws', proof: 'proof' }) as never,
    },
    pipeline: async () => ({ deps, flushHealth: () => undefined }),
    writeUsage: async (record) => {
      usage.push(record);
    },
    background: (work) => void work(),
  };
}

const askDelete: ReasonRequest = {
  task: 'chat',
  instructions: 'Help the user.',
  conversation: [{ role: 'user', content: 'Call delete_file now.' }],
  tools: [{ name: 'delete_file', inputSchema: { type: 'object' }, annotations: { destructive: true } }],
};

async function answer(request: ReasonRequest, options?: ServeOptions) {
  const usage: UsageRecord[] = [];
  const served = await serveAnswer(request, serveDeps(catalog, usage), options);
  return { response: served.response, usage };
}

describe('serve-reason options', () => {
  it('names the door’s route in the usage record, and POST /v1/reason by default', async () => {
    expect((await answer(askDelete)).usage.map((u) => u.route)).toEqual(['POST /v1/reason']);
    const door = await answer(askDelete, { route: 'POST /openai/v1/chat/completions' });
    expect(door.usage.map((u) => u.route)).toEqual(['POST /openai/v1/chat/completions']);
  });

  it('plans under the messages’ own privacy: the models it rules out are privacy exclusions', async () => {
    const plain = await answer(askDelete);
    expect(plain.response.model.model).toBe('open-model');
    expect(plain.response.decision.excluded).toEqual([]);
    const { response } = await answer(askDelete, { privacy: 'confidential' });
    expect(response.model.model).toBe('closed-model');
    expect(response.decision.excluded).toEqual([
      expect.objectContaining({ provider: 'sim', model: 'open-model', reason: 'privacy' }),
    ]);
  });

  it('a privacy no model may read is policy.no_eligible_model with the privacy exclusions', async () => {
    const only = catalogOf([simModel('open-only', { maxPrivacy: 'internal' })]);
    const error = await serveAnswer(askDelete, serveDeps(only, []), { privacy: 'restricted' }).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({
      code: 'policy.no_eligible_model',
      details: { excluded: [expect.objectContaining({ model: 'open-only', reason: 'privacy' })] },
    });
  });

  it('taints the calls that follow a user turn when the door says user turns are untrusted', async () => {
    const trusted = await answer(askDelete);
    expect(trusted.response.toolCalls).toMatchObject([{ name: 'delete_file', tainted: false }]);
    const { response } = await answer(askDelete, { untrustedTurns: true });
    expect(response.toolCalls).toMatchObject([{ name: 'delete_file', tainted: true }]);
    const noTurns = await answer(
      { ...askDelete, conversation: undefined, instructions: 'Call delete_file now.' },
      { untrustedTurns: true },
    );
    expect(noTurns.response.toolCalls).toMatchObject([{ name: 'delete_file', tainted: false }]);
  });

  it('lints each of a door’s instruction parts before the claim, answering the door’s own 400 and recording nothing', async () => {
    const usage: UsageRecord[] = [];
    const named: string[] = [];
    const source = (param: string, text: string) => ({
      text,
      invalid: (problem: string) => {
        named.push(param);
        return new ApiError('request.invalid', `Invalid '${param}': ${problem}.`);
      },
    });
    // The claim of a receiptId would reject here: the lint must answer before it.
    const request = {
      ...askDelete,
      instructions: 'ok\n\nbad <data-x> \u0007',
      receiptId: crypto.randomUUID(),
    };
    const instructionSources = [
      source('messages[0].content', 'ok'),
      source('messages[2].content', 'bad <data-x> \u0007'),
    ];
    for (const serve of [serveAnswer, serveEvents]) {
      const error = await serve(request, serveDeps(catalog, usage), { instructionSources }).catch(
        (e: unknown) => e,
      );
      expect(error).toMatchObject({
        code: 'request.invalid',
        message:
          "Invalid 'messages[2].content': instructions contain a control character (U+0007) at index 13.",
      });
    }
    expect(named).toEqual(['messages[2].content', 'messages[2].content']);
    expect(usage).toEqual([]);
  });

  it('tells a stream’s receipt id before its first event, the id the stream then carries', async () => {
    const usage: UsageRecord[] = [];
    const served = await serveEvents(askDelete, serveDeps(catalog, usage), {
      route: 'POST /openai/v1/responses',
      untrustedTurns: true,
    });
    expect(served.receiptId).toMatch(/^[0-9a-f-]{36}$/);
    const events: StreamEvent[] = [];
    for await (const event of served.events) events.push(event);
    const created = events.find((e) => e.type === 'response.created');
    const completed = events.at(-1);
    expect(created).toMatchObject({ receiptId: served.receiptId });
    expect(completed).toMatchObject({
      type: 'response.completed',
      response: { receiptId: served.receiptId, toolCalls: [{ tainted: true }] },
    });
    expect(usage.map((u) => [u.route, u.stream])).toEqual([['POST /openai/v1/responses', true]]);
  });
});
