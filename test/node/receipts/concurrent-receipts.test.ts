import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trustRootSchema } from '../../../src/contracts/trust-root';
import { decodeBase64, decodeBase64Url } from '../../../src/encoding/base64';
import type { Bytes } from '../../../src/encoding/bytes';
import { verifyCheckpoint } from '../../../src/log/checkpoint';
import { entryHash, leafHash, verifyConsistency, verifyInclusion } from '../../../src/log/merkle';
import { parseTlogProof } from '../../../src/log/tlog-proof';
import { type RunningValve, startValve } from '../helpers/start-valve';

// 500 concurrent requests through the real worker: 500 distinct, consecutive log indices; every
// receipt provable against the final checkpoint; the first and last checkpoints consistent.

let valve: RunningValve;

beforeAll(async () => {
  valve = await startValve({ vars: { DEFAULT_RATE_LIMIT_PER_MINUTE: '100000' } });
});

afterAll(async () => {
  await valve?.stop();
});

async function get<T>(path: string): Promise<T> {
  const res = await fetch(`${valve.url}${path}`);
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** Runs `tasks` with at most `limit` in flight. */
async function pool<T>(tasks: (() => Promise<T>)[], limit: number): Promise<T[]> {
  const results: T[] = [];
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const i = next++;
      results[i] = await (tasks[i] as () => Promise<T>)();
    }
  };
  await Promise.all(Array.from({ length: limit }, worker));
  return results;
}

describe('500 concurrent requests', () => {
  it('get 500 consecutive log indices, all provable against the final checkpoint', async () => {
    const receipts = await Promise.all(
      Array.from({ length: 500 }, async (_, i) => {
        const res = await fetch(`${valve.url}/v1/reason`, {
          method: 'POST',
          headers: { authorization: `Bearer ${valve.key}`, 'content-type': 'application/json' },
          body: JSON.stringify({
            task: `t${i}`,
            instructions: 'Summarize.',
            modelPolicy: { prefer: 'speed' },
          }),
        });
        expect(res.status).toBe(200);
        return ((await res.json()) as { receipt: { jws: string; proof: string } }).receipt;
      }),
    );
    const proofs = receipts.map((r) => {
      const parsed = parseTlogProof(r.proof);
      if (!parsed.ok) throw new Error(parsed.reason);
      return parsed.value;
    });
    const indices = proofs.map((p) => p.index).sort((a, b) => a - b);
    expect(new Set(indices).size).toBe(500);
    expect((indices[499] as number) - (indices[0] as number)).toBe(499);

    const root = trustRootSchema.parse(await get('/v1/trust-root'));
    const pinned = root.logs[0] as { origin: string; verifierKey: string };
    const final = await verifyCheckpoint(
      (await get<{ checkpoint: string }>('/v1/log/checkpoint')).checkpoint,
      pinned,
    );
    if (!final.ok) throw new Error(final.reason);
    const size = final.value.size;
    expect(size).toBeGreaterThanOrEqual((indices[499] as number) + 1);

    const checks = await pool(
      receipts.map((receipt, i) => async () => {
        const payload = decodeBase64Url(receipt.jws.split('.')[1] as string) as Bytes;
        const index = (proofs[i] as { index: number }).index;
        const { hashes } = await get<{ hashes: string[] }>(`/v1/log/inclusion?index=${index}&size=${size}`);
        const path = hashes.map((h) => decodeBase64(h) as Bytes);
        return verifyInclusion(leafHash(entryHash(payload)), index, size, path, final.value.root).ok;
      }),
      25,
    );
    expect(checks.every(Boolean)).toBe(true);

    const sizes = await Promise.all(proofs.map((p) => verifyCheckpoint(p.checkpoint, pinned)));
    const first = sizes.flatMap((c) => (c.ok ? [c.value] : [])).sort((a, b) => a.size - b.size)[0] as {
      size: number;
      root: Uint8Array;
    };
    expect(sizes.every((c) => c.ok)).toBe(true);
    const { hashes } = await get<{ hashes: string[] }>(`/v1/log/consistency?from=${first.size}&to=${size}`);
    const consistency = verifyConsistency(
      first.size,
      size,
      first.root,
      final.value.root,
      hashes.map((h) => decodeBase64(h) as Bytes),
    );
    expect(consistency.ok).toBe(true);
  });
});
