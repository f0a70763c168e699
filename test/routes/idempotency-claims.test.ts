import { env } from 'cloudflare:workers';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { reasonResponseSchema } from '../../src/contracts/reason-response';
import { HEARTBEAT_MS, LEASE_MS } from '../../src/issuance/held-claim';
import type { Catalog } from '../../src/policy/catalog';
import textFixture from '../fixtures/providers/openai/text.json';
import { createKey, jwsOf, logSize } from '../helpers/api';
import { simModel } from '../helpers/catalog-fixtures';
import { failingWrites, watchedReads } from '../helpers/d1-faults';
import { fakeNamespace } from '../helpers/fake-namespace';
import { reasonWithCatalog } from '../helpers/with-catalog';

// The claim on a caller's receiptId, attacked through /v1/reason: a request that runs long, a holder
// that stops (its Worker died) and wakes up again, a save that fails after the log append. The model
// is a fake OpenAI upstream whose first call hangs until the test lets it answer; the clock and the
// heartbeat's interval are fake (setTimeout, which the waiting duplicates poll with, stays real).

const catalog: Catalog = {
  providers: [{ id: 'openai', kind: 'openai', apiKeyEnv: 'OPENAI_API_KEY' }],
  models: [simModel('gpt-claims', { provider: 'openai', simulate: undefined })],
};

const base = {
  task: 'summarize',
  instructions: 'Summarize the ticket in one sentence.',
  context: [{ label: 'ticket', trust: 'untrusted', privacy: 'internal', content: 'The printer is on fire.' }],
  receiptSalt: 'Y2xhaW1zLWNsYWltcy1jbGFpbXMtY2xhaW1zLWNsYWltcy1jbGFpbXM',
  modelPolicy: { allowFallback: false },
};
const other = {
  ...base,
  instructions: 'Translate the ticket.',
  receiptSalt: 'b3RoZXItb3RoZXItb3RoZXItb3RoZXItb3RoZXItb3RoZXItb3RoZXI',
};

/** A fake upstream whose first call waits for `open()`; every call after it answers at once. */
function gatedUpstream() {
  let open: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (open = resolve));
  let reached: () => void = () => undefined;
  const firstCall = new Promise<void>((resolve) => (reached = resolve));
  let calls = 0;
  vi.spyOn(globalThis, 'fetch').mockImplementation(async () => {
    calls += 1;
    if (calls === 1) {
      reached();
      await gate;
    }
    return new Response(JSON.stringify(textFixture), { headers: { 'content-type': 'application/json' } });
  });
  return { open, firstCall, calls: () => calls };
}

function post(key: string, body: unknown, extraEnv: Record<string, unknown> = {}) {
  return reasonWithCatalog(catalog, key, body, { OPENAI_API_KEY: 'sk-test', ...extraEnv });
}

async function errorOf(res: Response) {
  return (
    (await res.json()) as { error: { code: string; retryable: boolean; details: Record<string, unknown> } }
  ).error;
}

/** Fires the heartbeat once (advancing the fake clock by its interval) and waits until its write landed. */
async function heartbeat(tenant: string, id: string): Promise<void> {
  await vi.advanceTimersByTimeAsync(HEARTBEAT_MS);
  const wanted = Date.now() + LEASE_MS;
  for (let i = 0; i < 200; i += 1) {
    const row = await env.DB.prepare('SELECT lease_until FROM receipts WHERE tenant = ? AND id = ?')
      .bind(tenant, id)
      .first<{ lease_until: number | null }>();
    if ((row?.lease_until ?? 0) >= wanted) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error('the heartbeat never renewed the lease');
}

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('a claim lives as long as its request', () => {
  it('keeps the id for a request that runs for ten minutes: a different request gets 409 and no receipt, the exact retry replays', async () => {
    vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'] });
    const { key, tenant } = await createKey('claims-long');
    const receiptId = crypto.randomUUID();
    const upstream = gatedUpstream();
    const size = await logSize();
    const first = post(key, { ...base, receiptId });
    await upstream.firstCall;
    vi.setSystemTime(Date.now() + 10 * 60_000);
    await heartbeat(tenant, receiptId);
    // Each duplicate looks at the claim twice, so it found it held and is waiting (not taking it over).
    const looks = (sql: string) => sql.startsWith('SELECT * FROM receipts');
    const [b, r] = [watchedReads(env.DB, looks), watchedReads(env.DB, looks)];
    const different = post(key, { ...other, receiptId }, { DB: b.db });
    const retry = post(key, { ...base, receiptId }, { DB: r.db });
    // (A duplicate that took the claim over instead answers on its own: then the assertions below fail.)
    await Promise.race([Promise.all([b.seen(2), r.seen(2)]), different, retry]);
    upstream.open();
    const [one, two, three] = await Promise.all([first, different, retry]);
    expect(one.res.status).toBe(200);
    expect(two.res.status).toBe(409);
    expect((await errorOf(two.res)).code).toBe('receipt.conflict');
    expect(three.res.status).toBe(200);
    expect(three.res.headers.get('Idempotent-Replayed')).toBe('true');
    expect(await jwsOf(three.res)).toBe(await jwsOf(one.res));
    expect(await logSize()).toBe(size + 1);
    expect(upstream.calls()).toBe(1);
    await Promise.all([one.settled(), two.settled(), three.settled()]);
  });

  it('gives a duplicate that waited past its limit 409 receipt.in_progress, retryable, with Retry-After', async () => {
    vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'] });
    const { key, tenant } = await createKey('claims-wait');
    const receiptId = crypto.randomUUID();
    const upstream = gatedUpstream();
    const first = post(key, { ...base, receiptId });
    await upstream.firstCall;
    let settled = false;
    const waiting = post(key, { ...base, receiptId }).finally(() => (settled = true));
    // The holder's heartbeat keeps its lease ahead of the clock while the duplicate's 30 s run out.
    for (let beat = 0; beat < 100 && !settled; beat += 1) {
      await heartbeat(tenant, receiptId);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const w = await waiting;
    expect(w.res.status).toBe(409);
    expect(w.res.headers.get('Retry-After')).toMatch(/^\d+$/);
    const error = await errorOf(w.res);
    expect(error).toMatchObject({ code: 'receipt.in_progress', retryable: true });
    upstream.open();
    expect((await first).res.status).toBe(200);
    await Promise.all([(await first).settled(), w.settled()]);
  });
});

describe('a dead holder’s claim', () => {
  it('is taken over by the exact retry once its lease lapses, and the holder, waking up, logs nothing', async () => {
    vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'] });
    const { key } = await createKey('claims-crash');
    const receiptId = crypto.randomUUID();
    const upstream = gatedUpstream();
    const size = await logSize();
    // The first request stops renewing (its heartbeat never fires): as if its Worker had died.
    const zombie = post(key, { ...base, receiptId });
    await upstream.firstCall;
    vi.setSystemTime(Date.now() + LEASE_MS + 1_000);
    const different = await post(key, { ...other, receiptId });
    expect(different.res.status).toBe(409);
    expect((await errorOf(different.res)).code).toBe('receipt.conflict');
    const retry = await post(key, { ...base, receiptId });
    expect(retry.res.status).toBe(200);
    expect(retry.res.headers.get('Idempotent-Replayed')).toBeNull();
    const jws = await jwsOf(retry.res);
    upstream.open();
    const woke = await zombie;
    expect(woke.res.status).toBe(409);
    expect(await errorOf(woke.res)).toMatchObject({ code: 'receipt.conflict', details: { claimLost: true } });
    expect(await logSize()).toBe(size + 1);
    const again = await post(key, { ...base, receiptId });
    expect(await jwsOf(again.res)).toBe(jws);
    await Promise.all([woke.settled(), retry.settled(), again.settled(), different.settled()]);
  });
});

describe('a save that fails after the log append', () => {
  it('leaves the receipt for the exact retry to recover: one logged receipt, one model call', async () => {
    const { key } = await createKey('claims-save');
    const receiptId = crypto.randomUUID();
    const upstream = gatedUpstream();
    upstream.open();
    const size = await logSize();
    const DB = failingWrites(env.DB, (sql) => /^\s*(INSERT|UPDATE)/i.test(sql) && sql.includes("'issued'"));
    const failed = await post(key, { ...base, receiptId }, { DB });
    await failed.settled();
    expect(await logSize()).toBe(size + 1);
    const retry = await post(key, { ...base, receiptId });
    await retry.settled();
    expect(await logSize()).toBe(size + 1);
    expect(upstream.calls()).toBe(1);
    // The completion is written behind the answer: the caller already has its receipt.
    expect(failed.res.status).toBe(200);
    const first = reasonResponseSchema.parse(await failed.res.json());
    expect(retry.res.status).toBe(200);
    const answer = reasonResponseSchema.parse(await retry.res.json());
    expect(answer.receipt.jws).toBe(first.receipt.jws);
    expect(answer.receipt.proof).toContain(`\nindex ${size}\n`);
    const different = await post(key, { ...other, receiptId });
    expect(different.res.status).toBe(409);
    expect(await logSize()).toBe(size + 1);
    expect(upstream.calls()).toBe(1);
    const again = await post(key, { ...base, receiptId });
    expect(await jwsOf(again.res)).toBe(answer.receipt.jws);
    await Promise.all([different.settled(), again.settled()]);
  });

  it('leaves a receipt signed but never logged for the exact retry to log, once', async () => {
    const { key } = await createKey('claims-append');
    const receiptId = crypto.randomUUID();
    const upstream = gatedUpstream();
    upstream.open();
    const size = await logSize();
    let failures = 0;
    const RECEIPT_LOG = fakeNamespace((name: string) => {
      const log = env.RECEIPT_LOG.getByName(name);
      const refuse = async () => {
        failures += 1;
        throw new Error('the log is unavailable (injected by the test)');
      };
      return {
        append: failures === 0 ? refuse : log.append.bind(log),
        appendOnce: failures === 0 ? refuse : log.appendOnce.bind(log),
        appendClaimed: failures === 0 ? refuse : log.appendClaimed.bind(log),
      };
    });
    const failed = await post(key, { ...base, receiptId }, { RECEIPT_LOG });
    await failed.settled();
    expect(failures).toBe(1);
    expect(failed.res.status).toBeGreaterThanOrEqual(500);
    expect(await logSize()).toBe(size);
    const retry = await post(key, { ...base, receiptId });
    expect(retry.res.status).toBe(200);
    const again = await post(key, { ...base, receiptId });
    expect(await jwsOf(again.res)).toBe(await jwsOf(retry.res));
    expect(await logSize()).toBe(size + 1);
    expect(upstream.calls()).toBe(1);
    await Promise.all([retry.settled(), again.settled()]);
  });
});
