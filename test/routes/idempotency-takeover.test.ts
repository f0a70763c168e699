import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { completionsWritten } from '../../src/issuance/complete-claimed';
import { LEASE_MS } from '../../src/issuance/held-claim';
import { logOriginOf } from '../../src/log/log-settings';
import type { Catalog } from '../../src/policy/catalog';
import textFixture from '../fixtures/providers/openai/text.json';
import { createKey, jwsOf, logSize } from '../helpers/api';
import { simModel } from '../helpers/catalog-fixtures';
import { fakeNamespace } from '../helpers/fake-namespace';
import { reasonWithCatalog } from '../helpers/with-catalog';

// The log shard as the fence of a caller's receiptId, attacked through /v1/reason: a stale holder A
// and the exact retry B that takes its claim over, in both orders of A's append and B's registration
// with the log, and a holder that dies after its append, before it saved anything in D1. The model is
// a fake OpenAI upstream whose calls each wait until the test opens them; the clock is fake.

const catalog: Catalog = {
  providers: [{ id: 'openai', kind: 'openai', apiKeyEnv: 'OPENAI_API_KEY' }],
  models: [simModel('gpt-takeover', { provider: 'openai', simulate: undefined })],
};

const base = {
  task: 'summarize',
  instructions: 'Summarize the ticket in one sentence.',
  context: [{ label: 'ticket', trust: 'untrusted', privacy: 'internal', content: 'The boiler is leaking.' }],
  receiptSalt: 'dGFrZW92ZXItdGFrZW92ZXItdGFrZW92ZXItdGFrZW92ZXItdGFrZW8',
  modelPolicy: { allowFallback: false },
};

/** A gate: `wait` resolves once `open` is called. */
function gate() {
  let open: () => void = () => undefined;
  const wait = new Promise<void>((resolve) => (open = resolve));
  return { open, wait };
}

/** A fake upstream whose n-th call waits for `open(n)` (from 1); `reached(n)` resolves when it arrives. */
function gatedUpstream(gated: number) {
  const gates = Array.from({ length: gated }, gate);
  const arrivals = Array.from({ length: gated }, gate);
  let calls = 0;
  vi.spyOn(globalThis, 'fetch').mockImplementation(async () => {
    calls += 1;
    const n = calls;
    arrivals[n - 1]?.open();
    await gates[n - 1]?.wait;
    return new Response(JSON.stringify(textFixture), { headers: { 'content-type': 'application/json' } });
  });
  return {
    open: (n: number) => gates[n - 1]?.open(),
    reached: (n: number) => arrivals[n - 1]?.wait,
    calls: () => calls,
  };
}

function post(key: string, body: unknown, extraEnv: Record<string, unknown> = {}) {
  return reasonWithCatalog(catalog, key, body, { OPENAI_API_KEY: 'sk-test', ...extraEnv });
}

/** The log binding, with each log's `registerClaim` held at `held` until it opens (and `seen` when it arrives). */
function heldRegistrations(held: Promise<void>) {
  const seen = gate();
  const RECEIPT_LOG = fakeNamespace((name: string) => {
    const log = env.RECEIPT_LOG.getByName(name);
    return {
      // Arrow functions: `bind` on a stub's method would itself be a remote call.
      append: (entry: Uint8Array) => log.append(entry),
      appendOnce: (entry: Uint8Array) => log.appendOnce(entry),
      appendClaimed: (claim: Parameters<typeof log.appendClaimed>[0]) => log.appendClaimed(claim),
      settleClaim: (claim: Parameters<typeof log.settleClaim>[0]) => log.settleClaim(claim),
      registerClaim: async (claim: Parameters<typeof log.registerClaim>[0]) => {
        seen.open();
        await held;
        return log.registerClaim(claim);
      },
    };
  });
  return { RECEIPT_LOG, seen: seen.wait };
}

/** A D1 database on which every write matching `matches` fails, as if the Worker had died before it. */
function deadWrites(db: D1Database, matches: (sql: string) => boolean): D1Database {
  const doomed = new WeakSet<D1PreparedStatement>();
  const fail = async (): Promise<never> => {
    throw new Error('D1_ERROR: the Worker died before this write (injected by the test)');
  };
  const dead = (statement: D1PreparedStatement): D1PreparedStatement => {
    doomed.add(statement);
    const bind = statement.bind.bind(statement);
    statement.bind = (...values: unknown[]) => dead(bind(...values));
    statement.run = fail;
    return statement;
  };
  return {
    prepare: (sql: string) => (matches(sql) ? dead(db.prepare(sql)) : db.prepare(sql)),
    batch: <T>(statements: D1PreparedStatement[]) =>
      statements.some((s) => doomed.has(s)) ? fail() : db.batch<T>(statements),
    exec: (sql: string) => db.exec(sql),
    withSession: (constraint?: string) => db.withSession(constraint),
    dump: () => db.dump(),
  } as D1Database;
}

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('a stale holder and the retry that takes its claim over', () => {
  it('refuses the holder that appends after the taker registered: 409 claimLost, one logged entry', async () => {
    vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'] });
    const { key } = await createKey('takeover-registered');
    const receiptId = crypto.randomUUID();
    const upstream = gatedUpstream(2);
    const size = await logSize();
    const holder = post(key, { ...base, receiptId });
    await upstream.reached(1);
    vi.setSystemTime(Date.now() + LEASE_MS + 1_000);
    // The taker has taken the claim over and registered with the log: it is in its own model call.
    const taker = post(key, { ...base, receiptId });
    await upstream.reached(2);
    upstream.open(1);
    const a = await holder;
    expect(a.res.status).toBe(409);
    const error = ((await a.res.json()) as { error: { code: string; details: Record<string, unknown> } })
      .error;
    expect(error).toMatchObject({ code: 'receipt.conflict', details: { claimLost: true } });
    expect(await logSize()).toBe(size);
    upstream.open(2);
    const b = await taker;
    expect(b.res.status).toBe(200);
    expect(await logSize()).toBe(size + 1);
    await Promise.all([a.settled(), b.settled()]);
    const again = await post(key, { ...base, receiptId });
    expect(again.res.headers.get('Idempotent-Replayed')).toBe('true');
    expect(await jwsOf(again.res)).toBe(await jwsOf(b.res.clone()));
    expect(await logSize()).toBe(size + 1);
    await again.settled();
  });

  it('answers the taker the holder’s receipt when the holder appended before the taker registered', async () => {
    vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'] });
    const { key } = await createKey('takeover-appended');
    const receiptId = crypto.randomUUID();
    const upstream = gatedUpstream(1);
    const size = await logSize();
    const holder = post(key, { ...base, receiptId });
    await upstream.reached(1);
    vi.setSystemTime(Date.now() + LEASE_MS + 1_000);
    const registration = gate();
    const { RECEIPT_LOG, seen } = heldRegistrations(registration.wait);
    const taker = post(key, { ...base, receiptId }, { RECEIPT_LOG });
    // The taker has taken the claim over in D1 and is on its way to the log (or answered without it).
    await Promise.race([seen, taker]);
    upstream.open(1);
    const a = await holder;
    expect(a.res.status).toBe(200);
    const jws = await jwsOf(a.res);
    expect(await logSize()).toBe(size + 1);
    registration.open();
    const b = await taker;
    expect(b.res.status).toBe(200);
    expect(b.res.headers.get('Idempotent-Replayed')).toBe('true');
    expect(await jwsOf(b.res)).toBe(jws);
    expect(await logSize()).toBe(size + 1);
    expect(upstream.calls()).toBe(1);
    await Promise.all([a.settled(), b.settled()]);
  });
});

describe('a holder that dies after its log append, before anything is saved in D1', () => {
  it('leaves its receipt for the exact retry after the lease: the same jws, no second append or model call', async () => {
    vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'] });
    const { key, tenant } = await createKey('takeover-crash');
    const receiptId = crypto.randomUUID();
    const upstream = gatedUpstream(0);
    const size = await logSize();
    // Nothing the holder writes to D1 after its claim lands: not the completion, not the end of its lease.
    const DB = deadWrites(env.DB, (sql) => /^\s*UPDATE/i.test(sql));
    const died = await post(key, { ...base, receiptId }, { DB });
    await died.settled();
    expect(died.res.status).toBe(200);
    const jws = await jwsOf(died.res);
    expect(await logSize()).toBe(size + 1);
    const row = await env.DB.prepare('SELECT state FROM receipts WHERE tenant = ? AND id = ?')
      .bind(tenant, receiptId)
      .first<{ state: string }>();
    expect(row?.state).not.toBe('issued');
    vi.setSystemTime(Date.now() + LEASE_MS + 1_000);
    const retry = await post(key, { ...base, receiptId });
    expect(retry.res.status).toBe(200);
    expect(retry.res.headers.get('Idempotent-Replayed')).toBe('true');
    expect(await jwsOf(retry.res)).toBe(jws);
    expect(await logSize()).toBe(size + 1);
    expect(upstream.calls()).toBe(1);
    await retry.settled();
  });
});

describe('a claimed append whose answer is lost on the way back', () => {
  it('keeps the signed receipt for the exact retry, which finds it logged: one entry, one model call', async () => {
    const { key } = await createKey('takeover-unknown');
    const receiptId = crypto.randomUUID();
    const upstream = gatedUpstream(0);
    const size = await logSize();
    let lost = 0;
    const RECEIPT_LOG = fakeNamespace((name: string) => {
      const log = env.RECEIPT_LOG.getByName(name);
      return {
        append: (entry: Uint8Array) => log.append(entry),
        appendClaimed: async (claim: Parameters<typeof log.appendClaimed>[0]) => {
          await log.appendClaimed(claim);
          lost += 1;
          throw new Error('the connection to the log dropped (injected by the test)');
        },
      };
    });
    const failed = await post(key, { ...base, receiptId }, { RECEIPT_LOG });
    await failed.settled();
    expect(lost).toBe(1);
    expect(failed.res.status).toBe(503);
    expect(await logSize()).toBe(size + 1);
    const retry = await post(key, { ...base, receiptId });
    expect(retry.res.status).toBe(200);
    const jws = await jwsOf(retry.res);
    const again = await post(key, { ...base, receiptId });
    expect(await jwsOf(again.res)).toBe(jws);
    expect(await logSize()).toBe(size + 1);
    expect(upstream.calls()).toBe(1);
    await Promise.all([retry.settled(), again.settled()]);
  });
});

describe('a claim made afresh for an id the log shard already holds a receipt for', () => {
  it('never logs a second receipt: the request saves the logged one in D1 and its retry replays it', async () => {
    const { key, tenant } = await createKey('takeover-afresh');
    const receiptId = crypto.randomUUID();
    const upstream = gatedUpstream(0);
    const size = await logSize();
    const DB = deadWrites(env.DB, (sql) => /^\s*UPDATE/i.test(sql));
    const first = await post(key, { ...base, receiptId }, { DB });
    await first.settled();
    const jws = await jwsOf(first.res);
    // D1 loses the claim (as an operator's cleanup might): the next request claims the id afresh.
    await env.DB.prepare('DELETE FROM receipts WHERE tenant = ? AND id = ?').bind(tenant, receiptId).run();
    const afresh = await post(key, { ...base, receiptId });
    expect(afresh.res.status).toBe(409);
    expect(afresh.res.headers.get('Retry-After')).toBe('1');
    const error = ((await afresh.res.json()) as { error: { code: string; retryable: boolean } }).error;
    expect(error).toMatchObject({ code: 'receipt.in_progress', retryable: true });
    expect(await logSize()).toBe(size + 1);
    await afresh.settled();
    const retry = await post(key, { ...base, receiptId });
    expect(retry.res.headers.get('Idempotent-Replayed')).toBe('true');
    expect(await jwsOf(retry.res)).toBe(jws);
    expect(await logSize()).toBe(size + 1);
    expect(upstream.calls()).toBe(2);
    await retry.settled();
  });
});

describe('what the log shard keeps of a claimed receipt', () => {
  it('holds no content, only the sealed copy, and drops that copy once D1 holds the receipt', async () => {
    const { key, tenant } = await createKey('takeover-kept');
    const receiptId = crypto.randomUUID();
    gatedUpstream(0);
    const rowOf = () =>
      runInDurableObject(env.RECEIPT_LOG.getByName(logOriginOf(env)), (_log, state) => {
        const rows = state.storage.sql
          .exec('SELECT * FROM log_claims WHERE tenant = ? AND rid = ?', tenant, receiptId)
          .toArray();
        return JSON.stringify(rows, (_, v) => (v instanceof ArrayBuffer ? [...new Uint8Array(v)] : v));
      });
    // Before the completion: D1 never saves it, so the shard's copy stays.
    const DB = deadWrites(env.DB, (sql) => /^\s*UPDATE/i.test(sql));
    const first = await post(key, { ...base, receiptId }, { DB });
    await first.settled();
    const kept = await rowOf();
    expect(kept).toContain('"replay":[');
    for (const secret of ['boiler', base.receiptSalt, 'Summarize']) expect(kept).not.toContain(secret);
    // The retry that takes the claim over saves the receipt in D1 from the shard, which then drops it.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + LEASE_MS + 1_000);
    const retry = await post(key, { ...base, receiptId });
    expect(retry.res.headers.get('Idempotent-Replayed')).toBe('true');
    await retry.settled();
    expect(await rowOf()).toContain('"replay":null');
    // A holder's own completion lets the shard drop it.
    const id = crypto.randomUUID();
    const saved = await post(key, { ...base, receiptId: id });
    await saved.settled();
    await completionsWritten();
    const row = await runInDurableObject(env.RECEIPT_LOG.getByName(logOriginOf(env)), (_log, state) =>
      state.storage.sql.exec('SELECT replay, saved FROM log_claims WHERE rid = ?', id).toArray(),
    );
    expect(row).toEqual([{ replay: null, saved: 1 }]);
  });
});
