import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeBase64 } from '../../src/encoding/base64';
import { formatAddCheckpoint, parseAddCheckpoint } from '../../src/log/add-checkpoint-body';
import { createCosigner, formatCosignerKey, readCosignatures } from '../../src/log/cosignature';
import { createNoteSigner, formatVerifierKey } from '../../src/log/signed-note';
import { Witness } from '../../src/witness/witness';
import { MemoryStore, seed, TestLog } from './test-log';

const ORIGIN = 'valve.test/log/0';

async function setup() {
  const logSigner = await createNoteSigner(ORIGIN, seed(7));
  const cosigner = await createCosigner('witness.test/w', seed(9));
  const store = new MemoryStore();
  const witness = new Witness(
    cosigner,
    [formatVerifierKey(ORIGIN, logSigner.publicKey)],
    store,
    () => 1_790_000_000_000,
  );
  return {
    logSigner,
    cosigner,
    store,
    witness,
    honest: new TestLog(logSigner, 'honest'),
    forked: new TestLog(logSigner, 'forked'),
  };
}

describe('the witness (c2sp.org/tlog-witness add-checkpoint)', () => {
  it('round-trips the spec body: old size, proof lines, empty line, checkpoint', () => {
    const body = 'old 3\nPlRNCrwHpqhGrupue0L7gxbjbMiKA9temvuZZDDpkaw=\n\nexample\n';
    const parsed = parseAddCheckpoint(body);
    expect(parsed.ok && parsed.value.oldSize).toBe(3);
    expect(parsed.ok && formatAddCheckpoint(parsed.value)).toBe(body);
    expect(parseAddCheckpoint('old 03\n\nx').ok).toBe(false);
    expect(
      parseAddCheckpoint(`old 1\n${'PlRNCrwHpqhGrupue0L7gxbjbMiKA9temvuZZDDpkaw=\n'.repeat(64)}\nx`),
    ).toEqual({
      ok: false,
      reason: 'more than 63 consistency proof lines',
    });
  });

  it('cosigns a first checkpoint, then one that a consistency proof extends, and answers the cosignature', async () => {
    const { witness, honest, cosigner, store } = await setup();
    honest.grow(5);
    const first = await witness.addCheckpoint(await honest.body(0));
    expect(first.status).toBe(200);
    const read = await readCosignatures((await honest.checkpoint()) + first.body, [cosigner]);
    expect(read.ok && read.value.cosignatures).toEqual([
      { name: 'witness.test/w', timestamp: 1_790_000_000 },
    ]);
    honest.grow(13);
    expect((await witness.addCheckpoint(await honest.body(5))).status).toBe(200);
    expect(store.heads.get(ORIGIN)?.size).toBe(13);
    expect(store.heads.get(ORIGIN)?.root).toBe(encodeBase64(honest.tree.root(13)));
  });

  it('answers 409 with the size it holds when the old size is not it', async () => {
    const { witness, honest } = await setup();
    honest.grow(8);
    await witness.addCheckpoint(await honest.body(0, 4));
    const stale = await witness.addCheckpoint(await honest.body(0));
    expect(stale).toEqual({ status: 409, contentType: 'text/x.tlog.size', body: '4\n' });
  });

  it('catches a split view: a second tree of a size it cosigned is refused, and kept as evidence', async () => {
    const { witness, honest, forked, store } = await setup();
    honest.grow(6);
    forked.grow(6);
    expect((await witness.addCheckpoint(await honest.body(0))).status).toBe(200);
    const split = await witness.addCheckpoint(await forked.body(6));
    expect(split.status).toBe(409);
    expect(split.body).toBe('a different tree of size 6 than the one this witness cosigned\n');
    expect(store.evidence).toEqual([await forked.checkpoint()]);
    // ...and so is a larger fork, whose "proof" from the cosigned tree cannot verify.
    forked.grow(9);
    expect((await witness.addCheckpoint(await forked.body(6))).status).toBe(422);
  });

  it('answers 404 for a log it does not witness, 403 for a checkpoint not signed by the log, 400 for a shrinking one', async () => {
    const { witness, honest } = await setup();
    const stranger = new TestLog(await createNoteSigner('other.test/log', seed(8)), 'x');
    stranger.grow(2);
    expect((await witness.addCheckpoint(await stranger.body(0))).status).toBe(404);
    const impostor = new TestLog(await createNoteSigner(ORIGIN, seed(8)), 'x');
    impostor.grow(2);
    expect((await witness.addCheckpoint(await impostor.body(0))).status).toBe(403);
    honest.grow(3);
    const shrink = formatAddCheckpoint({ oldSize: 4, proof: [], checkpoint: await honest.checkpoint() });
    expect((await witness.addCheckpoint(shrink)).status).toBe(400);
    expect((await witness.addCheckpoint('not a body')).status).toBe(400);
  });

  it('handles concurrent submissions one at a time, so a smaller tree never rolls back a larger one', async () => {
    const { witness, honest, store } = await setup();
    honest.grow(20);
    await witness.addCheckpoint(await honest.body(0, 10));
    const [large, small] = await Promise.all([
      witness.addCheckpoint(await honest.body(10, 20)),
      witness.addCheckpoint(await honest.body(10, 15)),
    ]);
    expect(large.status).toBe(200);
    expect(small).toEqual({ status: 409, contentType: 'text/x.tlog.size', body: '20\n' });
    expect(store.heads.get(ORIGIN)?.size).toBe(20);
  });

  it('never cosigns two different trees of one size, whatever a lying log submits (property)', async () => {
    const { logSigner, cosigner } = await setup();
    const vkey = formatVerifierKey(ORIGIN, logSigner.publicKey);
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            fork: fc.integer({ min: 0, max: 2 }),
            size: fc.integer({ min: 0, max: 24 }),
            claimOld: fc.option(fc.integer({ min: 0, max: 24 })),
          }),
          { minLength: 1, maxLength: 12 },
        ),
        async (steps) => {
          const store = new MemoryStore();
          const witness = new Witness(cosigner, [vkey], store);
          const logs = [0, 1, 2].map((k) => new TestLog(logSigner, `h${k}`));
          const cosigned = new Map<number, string>();
          for (const { fork, size, claimOld } of steps) {
            const log = logs[fork] as TestLog;
            log.grow(size);
            const held = store.heads.get(ORIGIN)?.size ?? 0;
            const old = claimOld ?? Math.min(held, size);
            const proof = old === 0 || old >= size ? [] : log.tree.consistencyProof(old, size);
            const body = formatAddCheckpoint({ oldSize: old, proof, checkpoint: await log.checkpoint(size) });
            const result = await witness.addCheckpoint(body);
            if (result.status !== 200) continue;
            const root = encodeBase64(log.tree.root(size));
            expect(cosigned.get(size) ?? root).toBe(root);
            cosigned.set(size, root);
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('publishes its key as a cosigner verifier key', async () => {
    const { cosigner } = await setup();
    expect(formatCosignerKey(cosigner.name, cosigner.publicKey)).toMatch(
      /^witness\.test\/w\+[0-9a-f]{8}\+B[A-P]/,
    );
  });
});
