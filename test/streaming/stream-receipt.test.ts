import { describe, expect, it } from 'vitest';
import type { MaybeSignedResponse, UnsignedResponse } from '../../src/contracts/reason-response';
import type { Catalog } from '../../src/policy/catalog';
import { abortableSleep } from '../../src/providers/abortable-sleep';
import { prepareReason, type ReasonDeps } from '../../src/reason/prepare-reason';
import { streamReason } from '../../src/reason/stream-reason';
import type { StreamEvent } from '../../src/streaming/stream-events';
import { catalogOf, simModel } from '../helpers/catalog-fixtures';
import { checkStreamOrder } from '../helpers/check-stream-order';

// The terminal event's receipt comes from the same issueReceipt hook as the JSON answer's, and the
// hook is given exactly the response the caller receives — built from what was streamed.

function depsOf(catalog: Catalog, issued: UnsignedResponse[]): ReasonDeps {
  return {
    catalog,
    notConfigured: () => undefined,
    secret: () => undefined,
    fetch: (() => Promise.reject(new Error('no network'))) as typeof fetch,
    now: () => performance.now(),
    startedAt: performance.now(),
    randomHex: (bytes) => '0f'.repeat(bytes),
    sleep: abortableSleep,
    random: () => 0.5,
    issueReceipt: async (_request, response) => {
      issued.push(structuredClone(response));
      return { jws: `jws-${issued.length}`, proof: 'proof' };
    },
  };
}

async function run(catalog: Catalog, body: Parameters<typeof prepareReason>[0], issued: UnsignedResponse[]) {
  const deps = depsOf(catalog, issued);
  const prepared = await prepareReason(body, deps);
  const events: StreamEvent[] = [];
  for await (const event of streamReason(prepared, deps, {
    requestId: 'r',
    signal: new AbortController().signal,
  }))
    events.push(event);
  expect(checkStreamOrder(events.map((e): { type: string; [key: string]: unknown } => ({ ...e })))).toEqual(
    [],
  );
  const text = events.map((e) => (e.type === 'response.output_text.delta' ? e.delta : '')).join('');
  return { events, text, terminal: events.at(-1) as StreamEvent };
}

describe('the receipt of a stream', () => {
  it('commits to exactly the completed response the caller receives', async () => {
    const issued: UnsignedResponse[] = [];
    const { text, terminal } = await run(
      catalogOf([simModel('r-text')]),
      { task: 't', instructions: 'i' },
      issued,
    );
    expect(terminal.type).toBe('response.completed');
    const response = (terminal as { response: MaybeSignedResponse }).response;
    expect(response.receipt).toEqual({ jws: 'jws-1', proof: 'proof' });
    const { receipt: _, ...unsigned } = response;
    expect(issued).toEqual([unsigned]);
    expect(response.output).toEqual({ format: 'text', text });
  });

  it('commits to the partial output of a cancelled stream', async () => {
    const issued: UnsignedResponse[] = [];
    const catalog = catalogOf([simModel('r-dear', { priceUsdPerMTok: { input: 0, output: 1000 } })]);
    const { text, terminal } = await run(
      catalog,
      { task: 't', instructions: 'i', modelPolicy: { maxCostUsd: 0.02 } },
      issued,
    );
    expect(terminal).toMatchObject({ type: 'response.cancelled', reason: 'budget' });
    const response = (terminal as { response: MaybeSignedResponse }).response;
    expect(issued[0]?.output).toEqual({ format: 'text', text });
    expect(response.receipt?.jws).toBe('jws-1');
  });

  it('issues no receipt for a failed stream', async () => {
    const issued: UnsignedResponse[] = [];
    const catalog = catalogOf([simModel('r-cut', { simulate: { failAfterChunks: 2 } })]);
    const { terminal } = await run(catalog, { task: 't', instructions: 'i' }, issued);
    expect(terminal).toMatchObject({ type: 'response.error', emittedDeltas: true });
    expect(issued).toEqual([]);
  });

  it('ends a deadline-cancelled stream with response.error when its receipt cannot be issued', async () => {
    // A chunk every 250 ms and a deadline of 1.25 s: a few deltas before the cut, even on a loaded machine.
    const catalog = catalogOf([simModel('r-slow', { simulate: { latencyMs: 1, interChunkMs: 250 } })]);
    const deps: ReasonDeps = {
      ...depsOf(catalog, []),
      issueReceipt: () => Promise.reject(new Error('the log is unreachable')),
    };
    const prepared = await prepareReason(
      { task: 't', instructions: 'i', modelPolicy: { maxLatencyMs: 1250 } },
      deps,
    );
    const ends: unknown[] = [];
    const events: StreamEvent[] = [];
    for await (const event of streamReason(prepared, deps, {
      requestId: 'r',
      signal: new AbortController().signal,
      onEnd: (end) => ends.push(end),
    }))
      events.push(event);
    expect(events.some((e) => e.type === 'response.output_text.delta')).toBe(true);
    expect(events.at(-1)).toMatchObject({ type: 'response.error', emittedDeltas: true });
    expect(ends).toHaveLength(1);
  });
});
