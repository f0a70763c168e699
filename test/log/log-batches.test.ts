import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { encodeBase64 } from '../../src/encoding/base64';
import { hexToBytes } from '../../src/encoding/hex';
import { utf8 } from '../../src/encoding/utf8';
import { type BatchHooks, LogBatches } from '../../src/log/log-batches';
import { LogSigning } from '../../src/log/log-signing';
import { entryHash } from '../../src/log/merkle';
import { verifyInclusionBundle } from '../../src/log/tlog-proof';
import { ed25519Pkcs8FromSeed } from '../../src/signing/keys';
import { LOG_ORIGIN, LOG_SEED, LOG_VERIFIER_KEY } from './known-answers';

// Appends and batches on their own, over a fresh object's SQLite: each batch is one transaction with
// its checkpoint, each waiter is answered a proof at it, and a batch that fails leaves no trace.

const pinned = { origin: LOG_ORIGIN, verifierKey: LOG_VERIFIER_KEY };
const payload = (n: number) => utf8(`{"n":${n}}`);

/** Batches over `storage`, signed with the known key; `beforeBatch` as given, every batch counted. */
function batchesIn(
  storage: DurableObjectStorage,
  beforeBatch: BatchHooks['beforeBatch'] = () => Promise.resolve(),
) {
  const written = { batches: 0 };
  const key = encodeBase64(ed25519Pkcs8FromSeed(hexToBytes(LOG_SEED) as Uint8Array));
  const batches: LogBatches = new LogBatches(storage, {
    signing: new LogSigning(() => LOG_ORIGIN, { LOG_SIGNING_KEY: key }),
    beforeBatch,
    afterBatch: () => {
      written.batches++;
    },
    proofOf: (index) => `proof of ${index} at ${batches.size()}`,
  });
  return { batches, written };
}

const count = (sql: SqlStorage, table: string) =>
  sql.exec<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table}`).one().n;

describe('LogBatches', () => {
  it('writes appends made in one turn as one batch, and answers each a proof that verifies at its checkpoint', async () => {
    await runInDurableObject(env.RECEIPT_LOG.getByName('batches-one'), async (_log, state) => {
      const { batches, written } = batchesIn(state.storage);
      const answers = await Promise.all([0, 1, 2].map((n) => batches.append(entryHash(payload(n)))));
      expect(answers.map((a) => a.index)).toEqual([0, 1, 2]);
      expect(written.batches).toBe(1);
      expect(batches.size()).toBe(3);
      for (const [n, answer] of answers.entries()) {
        const verified = await verifyInclusionBundle(payload(n), answer.proof, pinned);
        expect(verified.ok && verified.value.checkpoint.size).toBe(3);
      }
      expect([count(state.storage.sql, 'log_checkpoints'), count(state.storage.sql, 'log_entries')]).toEqual([
        1, 3,
      ]);
      // What a restarted object reads back: the same latest checkpoint and tree.
      const again = batchesIn(state.storage).batches;
      expect(again.latest).toEqual(batches.latest);
      expect(again.tree.root()).toEqual(batches.tree.root());
    });
  });

  it('rejects every waiter of a batch that fails, and leaves no trace: the next batch takes the same indices', async () => {
    await runInDurableObject(env.RECEIPT_LOG.getByName('batches-fail'), async (_log, state) => {
      let refuse = true;
      const { batches, written } = batchesIn(state.storage, async () => {
        if (refuse) throw new Error('no registration');
      });
      const failed = [0, 1].map((n) => batches.append(entryHash(payload(n))));
      for (const append of failed) await expect(append).rejects.toThrow('no registration');
      expect([batches.tree.size, batches.size(), written.batches]).toEqual([0, 0, 0]);
      expect([count(state.storage.sql, 'log_checkpoints'), count(state.storage.sql, 'log_entries')]).toEqual([
        0, 0,
      ]);
      refuse = false;
      const answer = await batches.append(entryHash(payload(0)));
      expect(answer.index).toBe(0);
      expect((await verifyInclusionBundle(payload(0), answer.proof, pinned)).ok).toBe(true);
    });
  });

  it('appends an appendOnce entry once, recording its index with the batch, or once known when it was already in', async () => {
    await runInDurableObject(env.RECEIPT_LOG.getByName('batches-once'), async (_log, state) => {
      const { batches } = batchesIn(state.storage);
      const recorded: string[] = [];
      const entry = entryHash(payload(7));
      const first = batches.appendOnce(entry, (index) => recorded.push(`first ${index}`));
      const joined = batches.appendOnce(entry);
      expect((await first).index).toBe(0);
      expect((await joined).index).toBe(0);
      const later = await batches.appendOnce(entry, (index) => recorded.push(`later ${index}`));
      expect(later).toEqual({ index: 0, proof: 'proof of 0 at 1' });
      expect(recorded).toEqual(['first 0', 'later 0']);
      expect(batches.size()).toBe(1);
    });
  });

  it('writes a record in the batch’s transaction: one that throws leaves neither the entry nor its checkpoint', async () => {
    await runInDurableObject(env.RECEIPT_LOG.getByName('batches-record'), async (_log, state) => {
      const { batches } = batchesIn(state.storage);
      const entry = entryHash(payload(8));
      const refused = batches.appendOnce(entry, () => {
        throw new Error('no claim row');
      });
      await expect(refused).rejects.toThrow('no claim row');
      const sql = state.storage.sql;
      expect([count(sql, 'log_checkpoints'), count(sql, 'log_entries'), count(sql, 'log_once')]).toEqual([
        0, 0, 0,
      ]);
      expect(batches.size()).toBe(0);
      expect((await batches.appendOnce(entry)).index).toBe(0);
    });
  });

  it('signs the empty tree’s checkpoint on request', async () => {
    await runInDurableObject(env.RECEIPT_LOG.getByName('batches-empty'), async (_log, state) => {
      const { batches } = batchesIn(state.storage);
      expect(batches.latest).toBeUndefined();
      await batches.signEmpty();
      expect(batches.latest?.size).toBe(0);
      expect(batches.latest?.note.startsWith(`${LOG_ORIGIN}\n0\n`)).toBe(true);
      expect(count(state.storage.sql, 'log_checkpoints')).toBe(1);
    });
  });
});
