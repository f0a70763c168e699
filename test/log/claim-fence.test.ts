import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { ClaimFence, type FencedLog } from '../../src/log/claim-fence';
import type { LogAppend } from '../../src/log/log-batches';
import type { ClaimedEntry } from '../../src/log/log-claims';

// The fence on its own, over a fake log whose appends settle when the test says: calls for one
// (tenant, receiptId) wait for the one on its way in, whatever the batch timing.

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
    entry: new Uint8Array(32).fill(n),
    jws: `jws-${token}`,
    replay: new Uint8Array([n]),
    meta,
    expiresAt: Date.now() + 60_000,
  };
}

/** A log that appends when `settle` is called, recording each index with the append, as a batch does. */
function fakeLog() {
  const waiting: {
    record?: (index: number) => void;
    resolve: (a: LogAppend) => void;
    reject: (e: unknown) => void;
  }[] = [];
  let size = 0;
  const log: FencedLog = {
    appendOnce: (_entry, record) =>
      new Promise<LogAppend>((resolve, reject) => {
        waiting.push({ record, resolve, reject });
      }),
    proofOf: (index) => (index < size ? `proof of ${index}` : null),
  };
  const settle = () => {
    const next = waiting.shift();
    if (next === undefined) throw new Error('no append is waiting');
    const index = size++;
    next.record?.(index);
    next.resolve({ index, proof: `proof of ${index}` });
  };
  const fail = () => waiting.shift()?.reject(new Error('the batch failed'));
  return { log, settle, fail, waiting };
}

const turn = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('ClaimFence', () => {
  it('records the holder’s row with its append, and answers a repeat from the row without appending', async () => {
    await runInDurableObject(env.RECEIPT_LOG.getByName('fence-repeat'), async (_log, state) => {
      const fake = fakeLog();
      const fence = new ClaimFence(state.storage.sql, fake.log);
      const first = fence.append(claimed('r', 'a', 1));
      fake.settle();
      expect(await first).toEqual({ kind: 'appended', index: 0, proof: 'proof of 0' });
      expect(await fence.append(claimed('r', 'a', 1))).toEqual({
        kind: 'appended',
        index: 0,
        proof: 'proof of 0',
      });
      expect(fake.waiting).toHaveLength(0);
      const row = state.storage.sql
        .exec<{ token: string; idx: number }>("SELECT token, idx FROM log_claims WHERE rid = 'r'")
        .toArray();
      expect(row).toEqual([{ token: 'a', idx: 0 }]);
    });
  });

  it('holds a registration and a rival until the append on its way in settles, then answers what it logged', async () => {
    await runInDurableObject(env.RECEIPT_LOG.getByName('fence-wait'), async (_log, state) => {
      const fake = fakeLog();
      const fence = new ClaimFence(state.storage.sql, fake.log);
      const holder = fence.append(claimed('r', 'a', 2));
      const taker = fence.register({ tenant: 't', rid: 'r', token: 'b', expiresAt: Date.now() + 60_000 });
      const rival = fence.append(claimed('r', 'c', 3));
      await turn();
      expect(fake.waiting).toHaveLength(1);
      fake.settle();
      const [appended, taken, other] = await Promise.all([holder, taker, rival]);
      expect(appended.kind).toBe('appended');
      expect(taken).toMatchObject({ kind: 'logged', logged: { index: 0, jws: 'jws-a', meta } });
      expect(other).toMatchObject({ kind: 'logged-by-other', logged: { index: 0, jws: 'jws-a' } });
      expect(fake.waiting).toHaveLength(0);
    });
  });

  it('refuses a holder once a taker registered, and lets the next holder append after a failed one', async () => {
    await runInDurableObject(env.RECEIPT_LOG.getByName('fence-lost'), async (_log, state) => {
      const fake = fakeLog();
      const fence = new ClaimFence(state.storage.sql, fake.log);
      expect(
        await fence.register({ tenant: 't', rid: 'r', token: 'b', expiresAt: Date.now() + 60_000 }),
      ).toEqual({
        kind: 'registered',
      });
      expect(await fence.append(claimed('r', 'a', 4))).toEqual({ kind: 'lost' });
      const failing = fence.append(claimed('q', 'a', 5));
      const next = fence.append(claimed('q', 'a', 5));
      fake.fail();
      await expect(failing).rejects.toThrow('the batch failed');
      await turn();
      fake.settle();
      expect(await next).toEqual({ kind: 'appended', index: 0, proof: 'proof of 0' });
    });
  });

  it('drops the replay copy of a settled claim and keeps its row', async () => {
    await runInDurableObject(env.RECEIPT_LOG.getByName('fence-settle'), async (_log, state) => {
      const fake = fakeLog();
      const fence = new ClaimFence(state.storage.sql, fake.log);
      const appended = fence.append(claimed('r', 'a', 6));
      fake.settle();
      await appended;
      fence.settle({ tenant: 't', rid: 'r' });
      const rows = state.storage.sql
        .exec<{ replay: ArrayBuffer | null; saved: number }>(
          "SELECT replay, saved FROM log_claims WHERE rid = 'r'",
        )
        .toArray();
      expect(rows).toEqual([{ replay: null, saved: 1 }]);
    });
  });
});
