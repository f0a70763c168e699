import { decodeBase64, encodeBase64 } from '../encoding/base64';
import { type CheckResult, fail, pass } from '../encoding/check-result';
import { HASH_BYTES } from './merkle';
import { type NoteSigner, openNote, parseVerifierKey, signNote } from './signed-note';

// C2SP tlog-checkpoint (c2sp.org/tlog-checkpoint): a signed note whose text is
//   origin "\n" tree size (decimal, no leading zeros) "\n" base64(root hash) "\n" [extension lines "\n"]
// signed by the log's own key (never the receipt key), whose key name is the origin.

export interface Checkpoint {
  origin: string;
  size: number;
  root: Uint8Array;
  /** Opaque, non-empty extension lines; Valve writes none. */
  extensions: string[];
}

/** What an auditor pins for a log: its origin and its note verifier key. */
export interface PinnedLog {
  origin: string;
  verifierKey: string;
}

const DECIMAL = /^(0|[1-9][0-9]*)$/;

export function formatCheckpoint(checkpoint: Checkpoint): string {
  const lines = [
    checkpoint.origin,
    String(checkpoint.size),
    encodeBase64(checkpoint.root),
    ...checkpoint.extensions,
  ];
  return `${lines.join('\n')}\n`;
}

export function parseCheckpoint(text: string): CheckResult<Checkpoint> {
  if (!text.endsWith('\n')) return fail('checkpoint text does not end in a newline');
  const [origin, sizeText, rootText, ...extensions] = text.slice(0, -1).split('\n');
  if (origin === undefined || origin.length === 0) return fail('checkpoint origin is empty');
  if (sizeText === undefined || !DECIMAL.test(sizeText) || !Number.isSafeInteger(Number(sizeText))) {
    return fail('checkpoint tree size is not a decimal integer');
  }
  const root = decodeBase64(rootText ?? '');
  if (root === null || root.length !== HASH_BYTES)
    return fail('checkpoint root is not a base64 SHA-256 hash');
  if (extensions.some((line) => line.length === 0)) return fail('checkpoint has an empty extension line');
  return pass({ origin, size: Number(sizeText), root, extensions });
}

export async function signCheckpoint(checkpoint: Checkpoint, signer: NoteSigner): Promise<string> {
  const parsed = parseCheckpoint(formatCheckpoint(checkpoint));
  if (!parsed.ok) throw new TypeError(`invalid checkpoint: ${parsed.reason}`);
  return signNote(formatCheckpoint(checkpoint), signer);
}

/** Opens a signed checkpoint under the pinned log key and checks its origin is the pinned one. */
export async function verifyCheckpoint(note: string, pinned: PinnedLog): Promise<CheckResult<Checkpoint>> {
  const verifier = parseVerifierKey(pinned.verifierKey);
  if (!verifier.ok) return fail(`pinned log key: ${verifier.reason}`);
  const opened = await openNote(note, [verifier.value]);
  if (!opened.ok) return fail(`checkpoint signature: ${opened.reason}`);
  const checkpoint = parseCheckpoint(opened.value.text);
  if (!checkpoint.ok) return checkpoint;
  if (checkpoint.value.origin !== pinned.origin) return fail('checkpoint origin is not the pinned origin');
  return checkpoint;
}
