import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { trustRootSchema } from '../../../src/contracts/trust-root';
import { decodeBase64Url } from '../../../src/encoding/base64';
import { hexToBytes } from '../../../src/encoding/hex';
import { signCheckpoint } from '../../../src/log/checkpoint';
import { cosignCheckpoint, createCosigner, formatCosignerKey } from '../../../src/log/cosignature';
import { entryHash, leafHash } from '../../../src/log/merkle';
import { MemoryNodeStore, MerkleTree } from '../../../src/log/merkle-tree';
import { createNoteSigner } from '../../../src/log/signed-note';
import { formatTlogProof, parseTlogProof } from '../../../src/log/tlog-proof';
import { withCosignedProof } from '../../../src/receipts/cosigned-proof';
import { verifyBundle } from '../../../src/receipts/verify-bundle';
import { ed25519Pkcs8FromSeed } from '../../../src/signing/keys';

// The cosigned proof fetched for a bundle whose own checkpoint lacks the witnesses is only a proof: a
// log that answers one from another history (the bundle's entry at the same index, cosigned by a
// witness that saw only that history) is caught as a fork against the bundle's own signed checkpoint.

const vectors = join(import.meta.dirname, '../../vectors/receipts');
const bundle = JSON.parse(readFileSync(join(vectors, 'fork-same-size/bundle.json'), 'utf8')) as {
  jws: string;
  proof: string;
};
const trustRoot = trustRootSchema.parse(
  JSON.parse(readFileSync(join(vectors, 'fork-same-size/trust-root.json'), 'utf8')),
);
const keys = JSON.parse(readFileSync(join(vectors, 'keys.json'), 'utf8')) as {
  logKey: { seed: string; keyName: string };
};

async function witnessAndPolicy() {
  const cosigner = await createCosigner('w.witness.test', ed25519Pkcs8FromSeed(new Uint8Array(32).fill(5)));
  return {
    cosigner,
    policy: { witnesses: [formatCosignerKey(cosigner.name, cosigner.publicKey)], quorum: 1 },
  };
}

/** The bundle's entry at its index in a tree of `size` whose other leaves are another history's, signed and cosigned. */
async function otherHistoryProof(size: number, cosigner: Awaited<ReturnType<typeof createCosigner>>) {
  const own = parseTlogProof(bundle.proof);
  if (!own.ok) throw new Error(own.reason);
  const { index } = own.value;
  const tree = new MerkleTree(new MemoryNodeStore());
  const entryLeaf = leafOfBundle();
  for (let i = 0; i < size; i++)
    tree.append(i === index ? entryLeaf : leafHash(new Uint8Array(32).fill(i + 100)));
  const signer = await createNoteSigner(
    keys.logKey.keyName,
    ed25519Pkcs8FromSeed(hexToBytes(keys.logKey.seed) as Uint8Array),
  );
  const note = await signCheckpoint(
    { origin: keys.logKey.keyName, size, root: tree.root(), extensions: [] },
    signer,
  );
  const text = note.slice(0, note.indexOf('\n\n') + 1);
  const cosigned = note + (await cosignCheckpoint(text, cosigner, 1_790_000_000));
  return formatTlogProof({ index, path: tree.inclusionProof(index, size), checkpoint: cosigned });
}

/** The leaf hash of the bundle's entry: SHA-256(0x00 || SHA-256(JWS payload)), as the log hashes it. */
function leafOfBundle(): Uint8Array {
  const payload = decodeBase64Url(bundle.jws.split('.')[1] as string) as Uint8Array;
  return leafHash(entryHash(payload));
}

describe('the cosigned proof fetched for a bundle', () => {
  it('is refused as a fork when it is from another history of the bundle’s size', async () => {
    const { cosigner, policy } = await witnessAndPolicy();
    const report = await verifyBundle(bundle, trustRoot, { witnesses: policy });
    expect(report.verdict).toBe('not verified');
    const forked = await otherHistoryProof(3, cosigner);
    const checked = await withCosignedProof(bundle, report, trustRoot, {
      witnesses: policy,
      fetchProof: async () => forked,
    });
    expect(checked.verdict).toBe('fork');
    expect(checked.security?.[0]?.checkpoints).toHaveLength(2);
  });

  it('is taken, with the witnesses named, when it extends the bundle’s checkpoint', async () => {
    const { cosigner, policy } = await witnessAndPolicy();
    const own = parseTlogProof(bundle.proof);
    if (!own.ok) throw new Error(own.reason);
    const note = own.value.checkpoint;
    const cosigned =
      note + (await cosignCheckpoint(note.slice(0, note.indexOf('\n\n') + 1), cosigner, 1_790_000_000));
    const report = await verifyBundle(bundle, trustRoot, { witnesses: policy });
    const checked = await withCosignedProof(bundle, report, trustRoot, {
      witnesses: policy,
      fetchProof: async () => formatTlogProof({ ...own.value, checkpoint: cosigned }),
    });
    expect(checked.verdict).toBe('verified');
    expect(checked.log?.cosignedBy).toEqual([{ name: 'w.witness.test', timestamp: 1_790_000_000 }]);
  });

  it('is a check that could not be run when the log will not answer, and is not asked for a bundle failing anything else', async () => {
    const { policy } = await witnessAndPolicy();
    const report = await verifyBundle(bundle, trustRoot, { witnesses: policy });
    const down = await withCosignedProof(bundle, report, trustRoot, {
      witnesses: policy,
      fetchProof: async () => {
        throw new Error('connection refused');
      },
    });
    expect(down.checks.at(-1)).toEqual({
      check: 'log.cosigned_proof',
      ok: false,
      unchecked: true,
      detail: 'could not fetch: connection refused',
    });
    const wrongTenant = await verifyBundle(bundle, trustRoot, { witnesses: policy, tenant: 'someone-else' });
    let asked = false;
    await withCosignedProof(bundle, wrongTenant, trustRoot, {
      witnesses: policy,
      fetchProof: async () => {
        asked = true;
        return '';
      },
    });
    expect(asked).toBe(false);
  });
});
