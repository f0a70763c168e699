import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ClaimedEntry } from '../../src/log/log-claims';
import type { ReceiptLog } from '../../src/log/receipt-log';

// The log shard as the arbiter of one logged receipt per (tenant, receiptId): a holder's append and a
// taker's registration, in either order, leave exactly one entry, and the loser is told so.

function entry(n: number): Uint8Array {
  const bytes = new Uint8Array(32);
  new DataView(bytes.buffer).setUint32(0, n);
  bytes[31] = 9;
  return bytes;
}

const meta = {
  saltGenerated: false,
  kid: 'kid-1',
  iat: 1_000,
  provider: 'openai',
  model: 'gpt',
  region: 'us',
  costUsd: 0.5,
  replayExpiresAt: 2_000,
};

function claimed(rid: string, token: string, n: number): ClaimedEntry {
  return {
    tenant: 't',
    rid,
    token,
    entry: entry(n),
    jws: `jws-${token}`,
    replay: new Uint8Array([n, 1, 2]),
    meta,
    expiresAt: Date.now() + 60_000,
  };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('ReceiptLog claimed appends', () => {
  it('appends once per holder: the same holder asking again gets the same index and logs nothing', async () => {
    const log = env.RECEIPT_LOG.getByName('claims-same');
    const first = await log.appendClaimed(claimed('r1', 'a', 1));
    const again = await log.appendClaimed(claimed('r1', 'a', 1));
    expect(first.kind).toBe('appended');
    expect(again).toMatchObject({ kind: 'appended', index: first.kind === 'appended' ? first.index : -1 });
    expect(await log.size()).toBe(1);
  });

  it('refuses the old holder once a taker registered, even after the taker logged', async () => {
    const log = env.RECEIPT_LOG.getByName('claims-lost');
    expect(
      await log.registerClaim({ tenant: 't', rid: 'r', token: 'b', expiresAt: Date.now() + 60_000 }),
    ).toEqual({ kind: 'registered' });
    expect(await log.appendClaimed(claimed('r', 'a', 1))).toEqual({ kind: 'lost' });
    expect(await log.size()).toBe(0);
    expect((await log.appendClaimed(claimed('r', 'b', 2))).kind).toBe('appended');
    expect(await log.appendClaimed(claimed('r', 'a', 1))).toEqual({ kind: 'lost' });
    expect(await log.size()).toBe(1);
  });

  it('answers a taker the receipt the holder already logged, with its replay copy and metadata', async () => {
    const log = env.RECEIPT_LOG.getByName('claims-logged');
    const appended = await log.appendClaimed(claimed('r', 'a', 3));
    const taken = await log.registerClaim({
      tenant: 't',
      rid: 'r',
      token: 'b',
      expiresAt: Date.now() + 60_000,
    });
    expect(taken.kind).toBe('logged');
    if (taken.kind !== 'logged' || appended.kind !== 'appended') throw new Error('unexpected');
    expect(taken.logged).toMatchObject({ index: appended.index, jws: 'jws-a', meta });
    expect([...(taken.logged.replay ?? [])]).toEqual([3, 1, 2]);
    expect(taken.logged.proof).toContain(`\nindex ${appended.index}\n`);
    // The registration came too late to take anything over: the holder's retry still gets its answer.
    expect((await log.appendClaimed(claimed('r', 'a', 3))).kind).toBe('appended');
    expect(await log.size()).toBe(1);
  });

  it('makes a registration that arrives during the holder’s append wait for it and answer it', async () => {
    // On the object itself, the registration called once the append is under way: two calls through a
    // stub are not bound to arrive in the order they were sent, and the other order is the 'lost' case.
    const stub = env.RECEIPT_LOG.getByName('claims-race');
    await runInDurableObject(stub, async (log: ReceiptLog) => {
      const appending = log.appendClaimed(claimed('r', 'a', 4));
      const taking = log.registerClaim({ tenant: 't', rid: 'r', token: 'b', expiresAt: Date.now() + 60_000 });
      const [appended, taken] = await Promise.all([appending, taking]);
      expect(appended.kind).toBe('appended');
      expect(taken.kind).toBe('logged');
      expect(log.size()).toBe(1);
    });
  });

  it('logs one of two concurrent holders with different tokens and tells the other what was logged', async () => {
    const log = env.RECEIPT_LOG.getByName('claims-two');
    const answers = await Promise.all([
      log.appendClaimed(claimed('r', 'a', 5)),
      log.appendClaimed(claimed('r', 'c', 6)),
    ]);
    expect(answers.map((a) => a.kind).sort()).toEqual(['appended', 'logged-by-other']);
    expect(await log.size()).toBe(1);
  });

  it('lets no two calls for one id in the same turn both log, whatever came before them', async () => {
    const stub = env.RECEIPT_LOG.getByName('claims-turn');
    await runInDurableObject(stub, async (log: ReceiptLog) => {
      // A first append in flight, then two rivals and a taker arriving together once it is in.
      const first = log.appendClaimed(claimed('r', 'a', 10));
      const rivals = [
        log.appendClaimed(claimed('r', 'c', 11)),
        log.appendClaimed(claimed('r', 'd', 12)),
        log.registerClaim({ tenant: 't', rid: 'r', token: 'e', expiresAt: Date.now() + 60_000 }),
      ];
      const fresh = [log.appendClaimed(claimed('q', 'a', 13)), log.appendClaimed(claimed('q', 'c', 14))];
      const kinds = (await Promise.all([first, ...rivals, ...fresh])).map((answer) => answer.kind);
      expect(kinds.slice(0, 4)).toEqual(['appended', 'logged-by-other', 'logged-by-other', 'logged']);
      expect(kinds.slice(4).sort()).toEqual(['appended', 'logged-by-other']);
      expect(log.size()).toBe(2);
    });
  });

  it('purges a row once D1 holds its receipt and its retention passed, and keeps one never saved', async () => {
    const stub = env.RECEIPT_LOG.getByName('claims-purge');
    await runInDurableObject(stub, async (log: ReceiptLog, state) => {
      vi.useFakeTimers({ toFake: ['Date'] });
      const rids = () => state.storage.sql.exec<{ rid: string }>('SELECT rid FROM log_claims').toArray();
      const soon = Date.now() + 1_000;
      await log.appendClaimed({ ...claimed('saved', 'a', 30), expiresAt: soon });
      await log.appendClaimed({ ...claimed('unsaved', 'a', 31), expiresAt: soon });
      log.settleClaim({ tenant: 't', rid: 'saved' });
      vi.setSystemTime(Date.now() + 2 * 60 * 60 * 1000);
      await log.appendClaimed(claimed('later', 'a', 32));
      expect(
        rids()
          .map((r) => r.rid)
          .sort(),
      ).toEqual(['later', 'unsaved']);
    });
  });

  it('keeps ids per tenant, and the idempotent append of a recovery finds a claimed entry', async () => {
    const log = env.RECEIPT_LOG.getByName('claims-tenants');
    const one = await log.appendClaimed(claimed('r', 'a', 7));
    const other = await log.appendClaimed({ ...claimed('r', 'a', 8), tenant: 'u' });
    expect([one.kind, other.kind]).toEqual(['appended', 'appended']);
    const once = await log.appendOnce(entry(7));
    expect(once.index).toBe(one.kind === 'appended' ? one.index : -1);
    expect(await log.size()).toBe(2);
  });
});
