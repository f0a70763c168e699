import { decodeBase64, encodeBase64 } from '../encoding/base64';
import type { Bytes } from '../encoding/bytes';
import { type CheckResult, fail, pass } from '../encoding/check-result';
import { type Checkpoint, type PinnedLog, verifyCheckpoint } from './checkpoint';
import { entryHash, HASH_BYTES, leafHash, verifyInclusion } from './merkle';

// C2SP tlog-proof (c2sp.org/tlog-proof), the offline proof a receipt carries:
//   "c2sp.org/tlog-proof@v1" "\n"
//   ["extra " base64(opaque data) "\n"]      (unauthenticated; Valve writes none)
//   "index " decimal "\n"
//   base64(hash) "\n" ...                     (the RFC 6962 inclusion path, leaf's sibling first)
//   "\n"
//   the signed checkpoint, verbatim

export const TLOG_PROOF_HEADER = 'c2sp.org/tlog-proof@v1';
const MAX_PATH = 64;

export interface TlogProof {
  index: number;
  path: Uint8Array[];
  /** The signed checkpoint note. */
  checkpoint: string;
  extra?: Uint8Array;
}

/**
 * `encode` turns a path hash into its base64 line; the log passes a memoized one, since the proofs of
 * one batch share most of their hashes.
 */
export function formatTlogProof(
  proof: TlogProof,
  encode: (hash: Uint8Array) => string = encodeBase64,
): string {
  const lines = [TLOG_PROOF_HEADER];
  if (proof.extra !== undefined) lines.push(`extra ${encodeBase64(proof.extra)}`);
  lines.push(`index ${proof.index}`);
  for (const hash of proof.path) lines.push(encode(hash));
  lines.push('');
  return `${lines.join('\n')}\n${proof.checkpoint}`;
}

export function parseTlogProof(text: string): CheckResult<TlogProof> {
  const lines = text.split('\n');
  if (lines[0] !== TLOG_PROOF_HEADER) return fail(`proof does not start with ${TLOG_PROOF_HEADER}`);
  let i = 1;
  let extra: Bytes | undefined;
  if (lines[i]?.startsWith('extra ')) {
    const decoded = decodeBase64(lines[i]?.slice('extra '.length) ?? '');
    if (decoded === null) return fail('proof extra data is not base64');
    extra = decoded;
    i++;
  }
  const index = /^index (0|[1-9][0-9]*)$/.exec(lines[i] ?? '')?.[1];
  if (index === undefined || !Number.isSafeInteger(Number(index)))
    return fail('proof has no valid index line');
  i++;
  const path: Bytes[] = [];
  for (; lines[i] !== ''; i++) {
    const hash = decodeBase64(lines[i] ?? '');
    if (lines[i] === undefined || hash === null || hash.length !== HASH_BYTES) {
      return fail('proof path line is not a base64 SHA-256 hash');
    }
    if (path.length === MAX_PATH) return fail('proof path is too long');
    path.push(hash);
  }
  const checkpoint = lines.slice(i + 1).join('\n');
  const proof: TlogProof = { index: Number(index), path, checkpoint };
  return pass(extra === undefined ? proof : { ...proof, extra });
}

export interface VerifiedInclusion {
  index: number;
  checkpoint: Checkpoint;
}

/**
 * Checks that `payload` (the receipt's JWS payload bytes) is entry `index` of the pinned log: the
 * checkpoint is signed by the pinned key for the pinned origin, and the inclusion path leads from the
 * entry's leaf hash to the checkpoint's root at the checkpoint's size. Nothing else is trusted.
 */
export async function verifyInclusionBundle(
  payload: Uint8Array,
  proofText: string,
  pinned: PinnedLog,
): Promise<CheckResult<VerifiedInclusion>> {
  const proof = parseTlogProof(proofText);
  if (!proof.ok) return proof;
  const checkpoint = await verifyCheckpoint(proof.value.checkpoint, pinned);
  if (!checkpoint.ok) return checkpoint;
  const { size, root } = checkpoint.value;
  const leaf = leafHash(entryHash(payload));
  const included = verifyInclusion(leaf, proof.value.index, size, proof.value.path, root);
  if (!included.ok) return fail(`inclusion: ${included.reason}`);
  return pass({ index: proof.value.index, checkpoint: checkpoint.value });
}
