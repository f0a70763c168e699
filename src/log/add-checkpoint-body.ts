import { decodeBase64, encodeBase64 } from '../encoding/base64';
import type { Bytes } from '../encoding/bytes';
import { type CheckResult, fail, pass } from '../encoding/check-result';
import { HASH_BYTES } from './merkle';

// The body of a C2SP tlog-witness add-checkpoint request (c2sp.org/tlog-witness):
//   "old " decimal "\n"           the size of the checkpoint the witness last cosigned for this log
//   base64(hash) "\n" ...         an RFC 6962 consistency proof from that size (none from 0), at most 63
//   "\n"
//   the signed checkpoint

export const MAX_PROOF_LINES = 63;

export interface AddCheckpointBody {
  oldSize: number;
  proof: readonly Uint8Array[];
  /** The signed checkpoint note, verbatim. */
  checkpoint: string;
}

export function formatAddCheckpoint(body: AddCheckpointBody): string {
  const lines = [`old ${body.oldSize}`, ...body.proof.map(encodeBase64), ''];
  return `${lines.join('\n')}\n${body.checkpoint}`;
}

export function parseAddCheckpoint(text: string): CheckResult<AddCheckpointBody> {
  const lines = text.split('\n');
  const old = /^old (0|[1-9][0-9]*)$/.exec(lines[0] ?? '')?.[1];
  if (old === undefined || !Number.isSafeInteger(Number(old))) {
    return fail('the body does not start with an "old <size>" line');
  }
  const proof: Bytes[] = [];
  let i = 1;
  for (; i < lines.length && lines[i] !== ''; i++) {
    if (proof.length === MAX_PROOF_LINES) return fail(`more than ${MAX_PROOF_LINES} consistency proof lines`);
    const hash = decodeBase64(lines[i] ?? '');
    if (hash === null || hash.length !== HASH_BYTES) return fail('a proof line is not a base64 SHA-256 hash');
    proof.push(hash);
  }
  if (i >= lines.length) return fail('no empty line before the checkpoint');
  return pass({ oldSize: Number(old), proof, checkpoint: lines.slice(i + 1).join('\n') });
}
