import { describe, expect, it } from 'vitest';
import { reasonResponseSchema } from '../../src/contracts/reason-response';
import { createKey } from '../helpers/api';
import { catalogOf, simModel } from '../helpers/catalog-fixtures';
import { errorValidator, responseValidator, validates } from '../helpers/json-schemas';
import { reasonWithCatalog } from '../helpers/with-catalog';

// Integration: the whole request path with simulator models scripted to fail, hang or be slow.
// Model names are unique per test: the simulator counts calls per model name within the isolate.

const body = { task: 'summarize', instructions: 'Summarize the ticket in one sentence.' };

interface ErrorBody {
  error: {
    code: string;
    details: {
      kind?: string;
      decision?: {
        attempts: { model: string; outcome: string; errorKind?: string; reason?: string; costUsd: number }[];
        budget?: { spentUsd: number };
      };
    };
  };
}

describe('one budget across retries and fallbacks', () => {
  it('fails over from a failing model to the next one and reports both attempts', async () => {
    const { key } = await createKey();
    const catalog = catalogOf([
      simModel('broken-a', { quality: 90, simulate: { failWith: 'invalid_response' } }),
      simModel('steady-a', { quality: 60 }),
    ]);
    const { res } = await reasonWithCatalog(catalog, key, body);
    expect(res.status).toBe(200);
    const json = reasonResponseSchema.parse(await res.json());
    expect(validates(responseValidator, json)).toBe(true);
    expect(json.model.model).toBe('steady-a');
    expect(json.decision.attempts).toMatchObject([
      { model: 'broken-a', outcome: 'error', errorKind: 'invalid_response', costUsd: 0 },
      { model: 'steady-a', outcome: 'ok' },
    ]);
    expect(json.costUsd).toBe(json.decision.budget?.spentUsd);
  });

  it('retries a transient failure on the same model with backoff before answering', async () => {
    const { key } = await createKey();
    const catalog = catalogOf([
      simModel('flaky-b', { quality: 90, simulate: { failWith: 'overloaded', failTimes: 2 } }),
      simModel('backup-b', { quality: 60 }),
    ]);
    const json = reasonResponseSchema.parse(await (await reasonWithCatalog(catalog, key, body)).res.json());
    expect(json.model.model).toBe('flaky-b');
    expect(json.decision.attempts.map((a) => [a.model, a.outcome, a.retry])).toEqual([
      ['flaky-b', 'error', 0],
      ['flaky-b', 'error', 1],
      ['flaky-b', 'ok', 2],
    ]);
  });

  it('fails over at once when a Retry-After does not fit maxLatencyMs', async () => {
    const { key } = await createKey();
    const catalog = catalogOf([
      simModel('limited-c', { quality: 90, simulate: { failWith: 'rate_limited', retryAfterMs: 30_000 } }),
      simModel('backup-c', { quality: 60 }),
    ]);
    const { res } = await reasonWithCatalog(catalog, key, { ...body, modelPolicy: { maxLatencyMs: 2000 } });
    const json = reasonResponseSchema.parse(await res.json());
    expect(json.model.model).toBe('backup-c');
    // No retry of the limited model: the trace goes straight from its one failure to the fallback.
    expect(json.decision.attempts.map((a) => [a.model, a.outcome, a.retry ?? 0])).toEqual([
      ['limited-c', 'error', 0],
      ['backup-c', 'ok', 0],
    ]);
    expect(json.decision.attempts[0]?.detail).toMatch(/Retry-After 30000 ms does not fit/);
  });

  it('skips a slow model that cannot answer in the time left and uses a faster one', async () => {
    const { key } = await createKey();
    const catalog = catalogOf([
      simModel('slow-d', {
        quality: 90,
        latency: { ttftMsP50: 3000, ttftMsP90: 5000, outputTokensPerSec: 50 },
      }),
      simModel('quick-d', { quality: 60 }),
    ]);
    const json = reasonResponseSchema.parse(
      await (
        await reasonWithCatalog(catalog, key, { ...body, modelPolicy: { maxLatencyMs: 1000 } })
      ).res.json(),
    );
    expect(json.model.model).toBe('quick-d');
    expect(json.decision.excluded).toMatchObject([{ model: 'slow-d', reason: 'latency' }]);
  });

  it('counts a model that timed out after the request was sent at its worst case, and stays within maxCostUsd', async () => {
    const { key } = await createKey();
    const catalog = catalogOf([
      // A provider-side timeout (the sim reports it at once): the provider may still bill the call.
      simModel('stuck-e', { quality: 90, simulate: { failWith: 'timeout' } }),
      simModel('cheap-e', { quality: 60, priceUsdPerMTok: { input: 0.1, output: 0.1 } }),
    ]);
    const maxCostUsd = 0.01;
    const { res } = await reasonWithCatalog(catalog, key, { ...body, modelPolicy: { maxCostUsd } });
    const json = reasonResponseSchema.parse(await res.json());
    const [stuck, cheap] = json.decision.attempts;
    expect(stuck).toMatchObject({ model: 'stuck-e', outcome: 'error', errorKind: 'timeout' });
    // Its worst case: the input estimate plus its full max_tokens at its prices.
    expect(stuck?.costUsd).toBe(json.decision.plan[0]?.worstCaseUsd);
    expect(stuck?.costUsd).toBeGreaterThan(0.008);
    expect(cheap).toMatchObject({ model: 'cheap-e', outcome: 'ok' });
    expect(json.costUsd).toBeLessThanOrEqual(maxCostUsd);
  });

  it('ends a request against a model that never answers by maxLatencyMs: 300 with model.timeout and the trace', async () => {
    const { key } = await createKey();
    const catalog = catalogOf([
      simModel('silent', {
        latency: { ttftMsP50: 10, ttftMsP90: 20, outputTokensPerSec: 100_000 },
        simulate: { hang: true },
      }),
    ]);
    const { res } = await reasonWithCatalog(catalog, key, { ...body, modelPolicy: { maxLatencyMs: 300 } });
    expect(res.status).toBe(504);
    const json = (await res.json()) as ErrorBody & { error: { message: string } };
    expect(validates(errorValidator, json)).toBe(true);
    expect(json.error.code).toBe('model.timeout');
    // The trace says why it ended: Valve's own deadline for the time left, on the one attempt there was
    // time for, with no retry and no fallback started after it.
    expect(json.error.message).toBe('sim/silent did not answer within the time left.');
    expect(json.error.details.decision?.attempts).toMatchObject([
      { model: 'silent', outcome: 'error', errorKind: 'timeout' },
    ]);
    expect(json.error.details.decision?.attempts).toHaveLength(1);
    expect(json.error.details.decision?.budget).toMatchObject({ maxLatencyMs: 300 });
  });

  it('does not start an attempt whose worst case could exceed what is left of maxCostUsd', async () => {
    const { key } = await createKey();
    const catalog = catalogOf([simModel('dear-f', { priceUsdPerMTok: { input: 100, output: 1000 } })]);
    const res = (await reasonWithCatalog(catalog, key, { ...body, modelPolicy: { maxCostUsd: 0.001 } })).res;
    expect(res.status).toBe(422);
    const json = (await res.json()) as ErrorBody & { error: { details: { excluded: { reason: string }[] } } };
    expect(json.error.code).toBe('policy.no_eligible_model');
    expect(json.error.details.excluded).toMatchObject([{ reason: 'cost' }]);
  });

  it('stops after a content filter instead of trying another model', async () => {
    const { key } = await createKey();
    const catalog = catalogOf([
      simModel('prude-g', { quality: 90, simulate: { failWith: 'content_filter' } }),
      simModel('other-g', { quality: 60 }),
    ]);
    const res = (await reasonWithCatalog(catalog, key, body)).res;
    const json = (await res.json()) as ErrorBody;
    expect(json.error.code).toBe('model.content_filter');
    expect(json.error.details.decision?.attempts.map((a) => a.model)).toEqual(['prude-g']);
  });
});
