import type { ConsistencyBody, VerifyCheck } from '../contracts/receipt-bodies';
import { decodeBase64, encodeBase64 } from '../encoding/base64';
import type { Bytes } from '../encoding/bytes';
import { type Checkpoint, type PinnedLog, verifyCheckpoint } from './checkpoint';
import { checkConsistencyProof } from './merkle';

// Verification step 5 (README "For auditors"): a new checkpoint must be consistent with the latest one the auditor holds for
// the same log. Both must verify under the pinned key; the sizes come only from them. Equal sizes need
// equal roots; otherwise a consistency proof (GET /v1/log/consistency?from=&to=) between the smaller
// and the larger is required.
//
// A fork is a security error, so it is reported only on evidence nobody but the log could have made:
// two signed checkpoints of one size with different roots, or a proof that leads to the larger signed
// root and, through it, to another root than the smaller checkpoint signs. A proof that does not
// verify shows only that the proof is bad (anyone can write one, and a log server that lies or is
// impersonated answers one): that is a check that could not be run, never a fork.

export interface CheckpointComparison {
  check: VerifyCheck;
  /** The checkpoint to remember afterwards (the larger one), when the check passed. */
  latest?: string;
  fork?: { problem: string; checkpoints: string[]; consistency?: ConsistencyBody };
  /** The consistency proof the check needs and was not given, by tree sizes. */
  needs?: { from: number; to: number };
}

export async function compareCheckpoints(
  held: string | undefined,
  current: string,
  pinned: PinnedLog,
  proof: ConsistencyBody | undefined,
): Promise<CheckpointComparison> {
  const name = 'log.consistency';
  const now = await verifyCheckpoint(current, pinned);
  if (!now.ok) return { check: { check: name, ok: false, detail: `new checkpoint: ${now.reason}` } };
  if (held === undefined) {
    return {
      check: {
        check: name,
        ok: true,
        detail: `first checkpoint held for ${pinned.origin} (size ${now.value.size})`,
      },
      latest: current,
    };
  }
  const before = await verifyCheckpoint(held, pinned);
  if (!before.ok) return { check: { check: name, ok: false, detail: `held checkpoint: ${before.reason}` } };
  const [small, large] =
    before.value.size <= now.value.size ? [before.value, now.value] : [now.value, before.value];
  const pair: CheckpointPair = {
    name,
    origin: pinned.origin,
    small,
    large,
    largeNote: large === now.value ? current : held,
    notes: [held, current],
  };
  return small.size === large.size || small.size === 0 ? compareEnds(pair) : compareByProof(pair, proof);
}

/** The two verified checkpoints being compared, smaller first, and what a finding reports of them. */
interface CheckpointPair {
  name: string;
  origin: string;
  small: Checkpoint;
  large: Checkpoint;
  /** The larger checkpoint's note, remembered when the check passes. */
  largeNote: string;
  /** Both notes, held then current, as a fork reports them. */
  notes: string[];
}

function forkOf(pair: CheckpointPair, problem: string, consistency?: ConsistencyBody): CheckpointComparison {
  return {
    check: { check: pair.name, ok: false, detail: `SECURITY: ${problem}` },
    fork: { problem, checkpoints: pair.notes, ...(consistency === undefined ? {} : { consistency }) },
  };
}

/** Equal sizes (equal roots, else a fork), or a held empty tree: no proof is needed. */
function compareEnds(pair: CheckpointPair): CheckpointComparison {
  const { name, origin, small, large, largeNote } = pair;
  if (small.size === large.size) {
    const same = checkConsistencyProof(small.size, large.size, small.root, large.root, []);
    return same.kind === 'consistent'
      ? {
          check: { check: name, ok: true, detail: `same checkpoint as held (size ${large.size})` },
          latest: largeNote,
        }
      : forkOf(pair, `two checkpoints of ${origin} at size ${large.size} have different roots (a fork)`);
  }
  return {
    check: { check: name, ok: true, detail: 'the held checkpoint is the empty tree' },
    latest: largeNote,
  };
}

/** Different sizes, the smaller not empty: the consistency proof between them decides. */
function compareByProof(pair: CheckpointPair, proof: ConsistencyBody | undefined): CheckpointComparison {
  const { name, small, large, largeNote } = pair;
  const span = `${small.size} to ${large.size}`;
  if (proof === undefined || proof.from !== small.size || proof.to !== large.size) {
    return {
      check: {
        check: name,
        ok: false,
        unchecked: true,
        detail: `needs a consistency proof from ${span}: GET /v1/log/consistency?from=${small.size}&to=${large.size}`,
      },
      needs: { from: small.size, to: large.size },
    };
  }
  const badProof = (reason: string): CheckpointComparison => ({
    check: {
      check: name,
      ok: false,
      unchecked: true,
      detail: `the consistency proof from ${span} does not verify: ${reason}; that shows the proof is bad, not that the log forked (ask the log again, or another copy of it)`,
    },
  });
  const hashes = proof.hashes.map((h) => decodeBase64(h));
  if (hashes.some((h) => h === null)) return badProof('a proof hash is not base64');
  const finding = checkConsistencyProof(small.size, large.size, small.root, large.root, hashes as Bytes[]);
  if (finding.kind === 'invalid') return badProof(finding.reason);
  if (finding.kind === 'forked') {
    return forkOf(
      pair,
      `the log's own consistency proof from ${span} leads to its signed root at size ${large.size} ` +
        `and, through it, to the root ${encodeBase64(finding.firstRoot)} at size ${small.size}, ` +
        `where it signed ${encodeBase64(small.root)} (a fork)`,
      proof,
    );
  }
  return { check: { check: name, ok: true, detail: `consistent from ${span}` }, latest: largeNote };
}
