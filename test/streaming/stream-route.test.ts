import { describe, expect, it } from 'vitest';
import { reasonResponseSchema } from '../../src/contracts/reason-response';
import { createKey } from '../helpers/api';
import { catalogOf, simModel } from '../helpers/catalog-fixtures';
import { deltaText, readStream, terminalOf } from '../helpers/read-stream';
import { streamWithCatalog } from '../helpers/stream-call';
import { usageRowsOf } from '../helpers/usage-rows';

// The stream contract against the simulator: held preambles, failover before the first delta only,
// cancellation by the caller's own deadline and budget, framing, and the usage record.

const body = { task: 'summarize', instructions: 'Summarize the ticket.' };
const words = (text: string) => text.trim().split(/\s+/).length;

describe('POST /v1/reason streaming (simulator)', () => {
  it('streams text: created first, deltas that make the output, one completed, a usage record', async () => {
    const { key, tenant } = await createKey('stream-text');
    const { res, settled } = await streamWithCatalog(catalogOf([simModel('s-text')]), key, body);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const events = await readStream(res);
    await settled();
    expect(events[0]).toMatchObject({
      type: 'response.created',
      model: { provider: 'sim', model: 's-text' },
    });
    const terminal = terminalOf(events);
    expect(terminal.type).toBe('response.completed');
    const response = reasonResponseSchema.parse(terminal.response);
    expect(response.output).toEqual({ format: 'text', text: deltaText(events) });
    expect(events.filter((e) => e.type === 'response.output_text.delta').length).toBeGreaterThan(5);
    expect(events[0]?.receiptId).toBe(response.receiptId);
    const [row] = await usageRowsOf(tenant, ['stream', 'outcome', 'model'], 1);
    expect(row).toEqual({ stream: 1, outcome: 'ok', model: 'sim/s-text' });
  });

  it('fails over before the first content delta: created names the model that answered', async () => {
    const { key } = await createKey('stream-failover');
    const catalog = catalogOf([
      simModel('s-down', { quality: 90, simulate: { failWith: 'overloaded' } }),
      simModel('s-up', { quality: 10 }),
    ]);
    const { res } = await streamWithCatalog(catalog, key, body);
    const events = await readStream(res);
    expect(events.filter((e) => e.type === 'response.created')).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'response.created', model: { model: 's-up' } });
    const response = reasonResponseSchema.parse(terminalOf(events).response);
    expect(response.decision.attempts.map((a) => [a.model, a.outcome])).toEqual([
      ['s-down', 'error'],
      ['s-down', 'error'],
      ['s-down', 'error'],
      ['s-up', 'ok'],
    ]);
  });

  it('never splices after the first delta: a cut stream ends in response.error with emittedDeltas', async () => {
    const { key } = await createKey('stream-cut');
    const catalog = catalogOf([
      simModel('s-cut', { quality: 90, simulate: { failAfterChunks: 3 } }),
      simModel('s-spare', { quality: 10 }),
    ]);
    const { res } = await streamWithCatalog(catalog, key, body);
    const events = await readStream(res);
    const terminal = terminalOf(events);
    expect(terminal).toMatchObject({
      type: 'response.error',
      emittedDeltas: true,
      error: { code: 'model.network' },
    });
    expect(events.filter((e) => e.type === 'response.output_text.delta')).toHaveLength(3);
    expect((terminal.partialUsage as { outputTokens: number }).outputTokens).toBeGreaterThan(0);
    const attempts = (terminal.error as { details: { decision: { attempts: { model: string }[] } } }).details
      .decision.attempts;
    expect(attempts.map((a) => a.model)).toEqual(['s-cut']);
    expect(events.filter((e) => e.type === 'response.created')).toEqual([
      expect.objectContaining({ model: expect.objectContaining({ model: 's-cut' }) }),
    ]);
  });

  it('ends with response.cancelled (deadline) and the partial output at the caller’s maxLatencyMs', async () => {
    const { key } = await createKey('stream-deadline');
    const catalog = catalogOf([simModel('s-slow', { simulate: { latencyMs: 1, interChunkMs: 60 } })]);
    const { res } = await streamWithCatalog(catalog, key, { ...body, modelPolicy: { maxLatencyMs: 400 } });
    const events = await readStream(res);
    const terminal = terminalOf(events);
    expect(terminal).toMatchObject({ type: 'response.cancelled', reason: 'deadline' });
    const response = reasonResponseSchema.parse(terminal.response);
    const sent = deltaText(events);
    expect(words(sent)).toBeGreaterThan(1);
    expect(response.output).toEqual({ format: 'text', text: sent });
    expect(sent).not.toMatch(/No model was called\.$/);
  });

  it('ends with response.cancelled (budget) when the caller’s maxCostUsd stops generation', async () => {
    const { key } = await createKey('stream-budget');
    // $0.001 an output token, free input: maxCostUsd 0.02 pays for 20 tokens, fewer than the answer.
    const catalog = catalogOf([simModel('s-dear', { priceUsdPerMTok: { input: 0, output: 1000 } })]);
    const { res } = await streamWithCatalog(catalog, key, { ...body, modelPolicy: { maxCostUsd: 0.02 } });
    const events = await readStream(res);
    const terminal = terminalOf(events);
    expect(terminal).toMatchObject({ type: 'response.cancelled', reason: 'budget' });
    const response = reasonResponseSchema.parse(terminal.response);
    expect(response.output).toEqual({ format: 'text', text: deltaText(events) });
    expect(response.finishReason).toBe('length');
    expect(response.costUsd).toBeLessThanOrEqual(0.02);
  });

  it('streams NDJSON: the same events, one JSON object a line, no SSE framing', async () => {
    const { key } = await createKey('stream-ndjson');
    const { res } = await streamWithCatalog(catalogOf([simModel('s-nd')]), key, body, 'application/x-ndjson');
    expect(res.headers.get('content-type')).toBe('application/x-ndjson; charset=utf-8');
    const text = new TextDecoder().decode(await res.clone().arrayBuffer());
    expect(text).not.toMatch(/^(event|data):/m);
    expect(text.endsWith('\n')).toBe(true);
    const events = await readStream(res);
    expect(terminalOf(events).type).toBe('response.completed');
  });

  it('answers 406 request.not_acceptable for an Accept that allows no format it serves', async () => {
    const { key } = await createKey('stream-406');
    const { res } = await streamWithCatalog(catalogOf([simModel('s-406')]), key, body, 'text/html');
    expect(res.status).toBe(406);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('request.not_acceptable');
    const wildcard = await streamWithCatalog(
      catalogOf([simModel('s-406')]),
      key,
      body,
      'text/html, */*;q=0.1',
    );
    expect(wildcard.res.status).toBe(200);
  });

  it('keeps planning errors plain HTTP errors: nothing was streamed yet', async () => {
    const { key } = await createKey('stream-plan');
    const { res } = await streamWithCatalog(catalogOf([simModel('s-eu', { regions: ['eu'] })]), key, {
      ...body,
      modelPolicy: { regions: ['us'] },
    });
    expect(res.status).toBe(422);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  });
});
