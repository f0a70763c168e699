import { describe, expect, it } from 'vitest';
import { encodeBase64 } from '../../src/encoding/base64';
import { hexToBytes } from '../../src/encoding/hex';
import { utf8 } from '../../src/encoding/utf8';
import { signCheckpoint } from '../../src/log/checkpoint';
import { entryHash, leafHash } from '../../src/log/merkle';
import { MemoryNodeStore, MerkleTree } from '../../src/log/merkle-tree';
import { createNoteSigner } from '../../src/log/signed-note';
import { formatTlogProof, parseTlogProof, verifyInclusionBundle } from '../../src/log/tlog-proof';
import { ed25519Pkcs8FromSeed } from '../../src/signing/keys';
import {
  LOG_CHECKPOINT_5,
  LOG_ORIGIN,
  LOG_PROOF_3,
  LOG_ROOT_5,
  LOG_SEED,
  LOG_VERIFIER_KEY,
} from './known-answers';

const pinned = { origin: LOG_ORIGIN, verifierKey: LOG_VERIFIER_KEY };
const payloads = [0, 1, 2, 3, 4].map((n) => utf8(`{"n":${n}}`));

async function buildLog() {
  const tree = new MerkleTree(new MemoryNodeStore());
  for (const payload of payloads) tree.append(leafHash(entryHash(payload)));
  const signer = await createNoteSigner(LOG_ORIGIN, ed25519Pkcs8FromSeed(hexToBytes(LOG_SEED) as Uint8Array));
  const checkpoint = await signCheckpoint(
    { origin: LOG_ORIGIN, size: 5, root: tree.root(), extensions: [] },
    signer,
  );
  return { tree, checkpoint };
}

describe('tlog-proof bundles', () => {
  it('builds the known proof of entry 3 from the tree and its signed checkpoint', async () => {
    const { tree, checkpoint } = await buildLog();
    expect(encodeBase64(tree.root())).toBe(LOG_ROOT_5);
    expect(checkpoint).toBe(LOG_CHECKPOINT_5);
    expect(formatTlogProof({ index: 3, path: tree.inclusionProof(3), checkpoint })).toBe(LOG_PROOF_3);
  });

  it('verifies the known proof for entry 3 offline against the pinned log', async () => {
    const result = await verifyInclusionBundle(payloads[3] as Uint8Array, LOG_PROOF_3, pinned);
    expect(result.ok && [result.value.index, result.value.checkpoint.size]).toEqual([3, 5]);
  });

  it('verifies every entry of the log with its own proof, and no entry with another one', async () => {
    const { tree, checkpoint } = await buildLog();
    for (let i = 0; i < 5; i++) {
      const proof = formatTlogProof({ index: i, path: tree.inclusionProof(i), checkpoint });
      for (let j = 0; j < 5; j++) {
        expect(
          (await verifyInclusionBundle(payloads[j] as Uint8Array, proof, pinned)).ok,
          `${j} in ${i}`,
        ).toBe(i === j);
      }
    }
  });

  it('fails when any single character of the proof text changes', async () => {
    for (let i = 0; i < LOG_PROOF_3.length; i++) {
      const code = LOG_PROOF_3.charCodeAt(i);
      const changed = LOG_PROOF_3.slice(0, i) + String.fromCharCode(code ^ 1) + LOG_PROOF_3.slice(i + 1);
      expect(
        (await verifyInclusionBundle(payloads[3] as Uint8Array, changed, pinned)).ok,
        `position ${i}`,
      ).toBe(false);
    }
  });

  it('fails for a payload differing in one byte, and for another pinned origin', async () => {
    expect((await verifyInclusionBundle(utf8('{"n":3} '), LOG_PROOF_3, pinned)).ok).toBe(false);
    expect(
      (await verifyInclusionBundle(payloads[3] as Uint8Array, LOG_PROOF_3, { ...pinned, origin: 'x/log/0' }))
        .ok,
    ).toBe(false);
  });

  it('round-trips extra data, an empty path, and rejects a malformed header or index', () => {
    const checkpoint = LOG_CHECKPOINT_5;
    const text = formatTlogProof({ index: 0, path: [], checkpoint, extra: utf8('context') });
    expect(text.startsWith('c2sp.org/tlog-proof@v1\nextra Y29udGV4dA==\nindex 0\n\n')).toBe(true);
    expect(parseTlogProof(text)).toEqual({
      ok: true,
      value: { index: 0, path: [], checkpoint, extra: utf8('context') },
    });
    expect(parseTlogProof(LOG_PROOF_3.replace('tlog-proof@v1', 'tlog-proof@v2')).ok).toBe(false);
    expect(parseTlogProof(LOG_PROOF_3.replace('index 3', 'index 03')).ok).toBe(false);
    expect(parseTlogProof(LOG_PROOF_3.replace('index 3', 'index -3')).ok).toBe(false);
    expect(
      parseTlogProof('c2sp.org/tlog-proof@v1\nindex 3\nIEKM/zPVCJmktPOjWvkkm9sajESuvz1ChYiju284qic=').ok,
    ).toBe(false);
  });
});
