import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { decodeBase64 } from '../../src/encoding/base64';
import type { Bytes } from '../../src/encoding/bytes';
import { verifyCheckpoint } from '../../src/log/checkpoint';
import type { LogAppend } from '../../src/log/log-batches';
import { logOriginOf } from '../../src/log/log-settings';
import { leafHash, verifyConsistency, verifyInclusion } from '../../src/log/merkle';
import type { ReceiptLog } from '../../src/log/receipt-log';
import { parseTlogProof, verifyInclusionBundle } from '../../src/log/tlog-proof';
import { serviceKeysOf } from '../../src/receipts/service-keys';
import { refusalOf } from './refusal-of';

const origin = logOriginOf(env);
const pinned = async () =>
  (await serviceKeysOf(env, origin)).trustRoot.logs[0] as { origin: string; verifierKey: string };

function entry(n: number): Uint8Array {
  const bytes = new Uint8Array(32);
  new DataView(bytes.buffer).setUint32(0, n);
  bytes[31] = 7;
  return bytes;
}

/** The tree size of the checkpoint an append's proof ends in. */
function checkpointSizeOf(append: LogAppend): number {
  const parsed = parseTlogProof(append.proof);
  if (!parsed.ok) throw new Error(parsed.reason);
  return Number(parsed.value.checkpoint.split('\n')[1]);
}

const nextTurn = () => new Promise((resolve) => setTimeout(resolve, 0));

const hashes = (list: string[]) => list.map((h) => decodeBase64(h) as Bytes);

describe('the ReceiptLog Durable Object', () => {
  it('signs an empty checkpoint for a new log', async () => {
    const log = env.RECEIPT_LOG.getByName('test-empty');
    const checkpoint = await verifyCheckpoint(await log.checkpoint(), await pinned());
    expect(checkpoint.ok && checkpoint.value.size).toBe(0);
  });

  it('gives 500 concurrent appends 500 consecutive indices, all provable against the final checkpoint', async () => {
    const log = env.RECEIPT_LOG.getByName('test-500');
    const entries = Array.from({ length: 500 }, (_, i) => entry(i));
    const results = await Promise.all(entries.map((e) => log.append(e)));
    expect(results.map((r) => r.index).sort((a, b) => a - b)).toEqual(entries.map((_, i) => i));

    const key = await pinned();
    const final = await verifyCheckpoint(await log.checkpoint(), key);
    if (!final.ok) throw new Error(final.reason);
    expect(final.value.size).toBe(500);
    const checkpointOf = (proof: string) => proof.slice(proof.indexOf('\n\n') + 2);
    const checkpoints = new Set(results.map((r) => checkpointOf(r.proof)));
    expect(checkpoints.size).toBeLessThan(500); // appends were batched
    for (const [i, result] of results.entries()) {
      expect((await verifyInclusionBundle(new Uint8Array(0), result.proof, key)).ok).toBe(false);
      const own = parseTlogProof(result.proof);
      expect(own.ok).toBe(true);
      const proof = await log.inclusion(result.index, 500);
      const leaf = leafHash(entries[i] as Uint8Array);
      expect(verifyInclusion(leaf, result.index, 500, hashes(proof?.hashes ?? []), final.value.root).ok).toBe(
        true,
      );
    }
    const sizes = [...checkpoints].map((note) => Number(note.split('\n')[1])).sort((a, b) => a - b);
    const first = [...checkpoints].find((note) => Number(note.split('\n')[1]) === sizes[0]) as string;
    const firstCheckpoint = await verifyCheckpoint(first, key);
    if (!firstCheckpoint.ok) throw new Error(firstCheckpoint.reason);
    const consistency = await log.consistency(firstCheckpoint.value.size, 500);
    expect(
      verifyConsistency(
        firstCheckpoint.value.size,
        500,
        firstCheckpoint.value.root,
        final.value.root,
        hashes(consistency?.hashes ?? []),
      ).ok,
    ).toBe(true);
  });

  it('answers each appender a proof against its own signed checkpoint', async () => {
    const log = env.RECEIPT_LOG.getByName('test-own');
    const key = await pinned();
    const results = await Promise.all([1, 2, 3].map((n) => log.append(entry(n))));
    for (const [i, result] of results.entries()) {
      const parsed = parseTlogProof(result.proof);
      if (!parsed.ok) throw new Error(parsed.reason);
      const checkpoint = await verifyCheckpoint(parsed.value.checkpoint, key);
      if (!checkpoint.ok) throw new Error(checkpoint.reason);
      const leaf = leafHash(entry(i + 1));
      expect(
        verifyInclusion(
          leaf,
          parsed.value.index,
          checkpoint.value.size,
          parsed.value.path,
          checkpoint.value.root,
        ).ok,
      ).toBe(true);
    }
  });

  it('refuses an entry that is not a 32-byte hash, and appends nothing', async () => {
    const log = env.RECEIPT_LOG.getByName('test-bad');
    for (const bad of [new Uint8Array(31), new Uint8Array(33)]) {
      expect(await refusalOf(log, (l) => l.append(bad))).toBe('a log entry is a 32-byte hash');
      expect(await refusalOf(log, (l) => l.appendOnce(bad))).toBe('a log entry is a 32-byte hash');
    }
    expect(await log.size()).toBe(0);
  });

  it('refuses proofs beyond its signed size and consistency from size 0', async () => {
    const log = env.RECEIPT_LOG.getByName('test-range');
    await log.append(entry(1));
    await log.append(entry(2));
    expect(await log.inclusion(0, 3)).toBeNull();
    expect(await log.inclusion(2, 2)).toBeNull();
    expect(await log.consistency(0, 2)).toBeNull();
    expect(await log.consistency(2, 2)).toEqual({ hashes: [] });
    expect((await log.consistency(1, 2))?.hashes).toHaveLength(1);
  });

  it('appends an entry once through appendOnce, concurrently or later, and proves it at the latest size', async () => {
    const log = env.RECEIPT_LOG.getByName('test-once');
    await log.append(entry(1));
    const [a, b] = await Promise.all([log.appendOnce(entry(2)), log.appendOnce(entry(2))]);
    expect([a.index, b.index]).toEqual([1, 1]);
    await log.append(entry(3));
    const later = await log.appendOnce(entry(2));
    expect(later.index).toBe(1);
    expect(await log.size()).toBe(3);
    const proof = parseTlogProof(later.proof);
    if (!proof.ok) throw new Error(proof.reason);
    const checkpoint = await verifyCheckpoint(proof.value.checkpoint, await pinned());
    if (!checkpoint.ok) throw new Error(checkpoint.reason);
    expect(checkpoint.value.size).toBe(3);
    const leaf = leafHash(entry(2));
    expect(verifyInclusion(leaf, 1, 3, proof.value.path as Bytes[], checkpoint.value.root).ok).toBe(true);
    expect((await log.appendOnce(entry(4))).index).toBe(3);
  });

  it('writes an append at once while the log is quiet, and holds the batch of a busy log a moment for more', async () => {
    const stub = env.RECEIPT_LOG.getByName('test-window');
    await runInDurableObject(stub, async (log: ReceiptLog) => {
      // Quiet (the last batch held fewer than four entries): an append is written on the next turn,
      // alone, so a lone request never waits for company.
      await Promise.all([0, 1, 2].map((n) => log.append(entry(n))));
      await nextTurn();
      const alone = log.append(entry(3));
      await nextTurn();
      const after = log.append(entry(4));
      expect(checkpointSizeOf(await alone)).toBe(4);
      expect(checkpointSizeOf(await after)).toBe(5);
      // Busy (the last batch held four): the next batch waits a few milliseconds, so an append made a
      // turn later joins it and the two share one commit and one checkpoint.
      await Promise.all([5, 6, 7, 8].map((n) => log.append(entry(n))));
      await nextTurn();
      const first = log.append(entry(9));
      await nextTurn();
      const second = log.append(entry(10));
      expect([checkpointSizeOf(await first), checkpointSizeOf(await second)]).toEqual([11, 11]);
    });
  });
});
