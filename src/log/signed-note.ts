import { sha256 } from '@noble/hashes/sha2.js';
import { decodeBase64, encodeBase64 } from '../encoding/base64';
import { type Bytes, concatBytes } from '../encoding/bytes';
import { type CheckResult, fail, pass } from '../encoding/check-result';
import { bytesToHex } from '../encoding/hex';
import { hasLoneSurrogate, utf8 } from '../encoding/utf8';
import { importEd25519SigningKey, signEd25519, verifyEd25519 } from '../signing/keys';

// C2SP signed-note (c2sp.org/signed-note) with Ed25519 signatures (type 0x01), as Go's
// golang.org/x/mod/sumdb/note writes them:
//   note          = text (ending in "\n") || "\n" || signature lines
//   signature     = "— " || key name || " " || base64(key ID (4 bytes, big-endian) || Ed25519(text)) || "\n"
//   key ID        = SHA-256(key name || "\n" || 0x01 || public key)[:4]
//   verifier key  = key name || "+" || 8 lowercase hex digits of key ID || "+" || base64(0x01 || public key)
// A verifier key is split on its first two "+" only: the base64 may hold "+" too.

const ED25519_TYPE = 0x01;
const SIGNATURE_PREFIX = '\u2014 ';
const MAX_SIGNATURES = 100;

export interface NoteVerifier {
  name: string;
  keyId: Bytes;
  publicKey: Bytes;
}

export interface NoteSigner extends NoteVerifier {
  privateKey: CryptoKey;
}

/** Notes allow no ASCII control character but the newline. */
function hasForbiddenControl(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 && code !== 0x0a) return true;
  }
  return false;
}

/** Non-empty, with no Unicode space, no control character and no "+". */
export function isValidKeyName(name: string): boolean {
  return name.length > 0 && !/[\s+]/u.test(name) && !hasForbiddenControl(name);
}

/** SHA-256(name || "\n" || type || public key)[:4]: a note key's ID, type 0x01 unless told. */
export function noteKeyId(name: string, publicKey: Uint8Array, type = ED25519_TYPE): Bytes {
  const digest = sha256(concatBytes(utf8(name), new Uint8Array([0x0a, type]), publicKey));
  return digest.slice(0, 4) as Bytes;
}

export function formatVerifierKey(name: string, publicKey: Uint8Array, type = ED25519_TYPE): string {
  const typed = concatBytes(new Uint8Array([type]), publicKey);
  return `${name}+${bytesToHex(noteKeyId(name, publicKey, type))}+${encodeBase64(typed)}`;
}

/** A verifier key of an Ed25519 key of signature type `type` (0x01 unless told; 0x04 for a cosigner). */
export function parseVerifierKey(vkey: string, type = ED25519_TYPE): CheckResult<NoteVerifier> {
  const first = vkey.indexOf('+');
  const second = vkey.indexOf('+', first + 1);
  if (first < 0 || second < 0) return fail('verifier key is not name+hash+key');
  const name = vkey.slice(0, first);
  const hash = vkey.slice(first + 1, second);
  const typed = decodeBase64(vkey.slice(second + 1));
  if (!isValidKeyName(name)) return fail('verifier key name is not valid');
  if (!/^[0-9a-f]{8}$/.test(hash)) return fail('verifier key hash is not 8 lowercase hex digits');
  if (typed === null || typed.length !== 33 || typed[0] !== type) {
    const hex = type.toString(16).padStart(2, '0');
    return fail(`verifier key is not an Ed25519 (type 0x${hex}) key`);
  }
  const publicKey = typed.slice(1);
  const keyId = noteKeyId(name, publicKey, type);
  if (bytesToHex(keyId) !== hash) return fail('verifier key hash does not match its name and key');
  return pass({ name, keyId, publicKey });
}

/** A note signer from an Ed25519 PKCS#8 private key (base64 or DER), named `name`. */
export async function createNoteSigner(name: string, pkcs8: string | Uint8Array): Promise<NoteSigner> {
  if (!isValidKeyName(name)) throw new TypeError('a note key name must be non-empty without spaces or "+"');
  const key = await importEd25519SigningKey(pkcs8);
  return {
    name,
    keyId: noteKeyId(name, key.publicKey),
    publicKey: key.publicKey,
    privateKey: key.privateKey,
  };
}

function isValidText(text: string): boolean {
  return text.endsWith('\n') && !hasLoneSurrogate(text) && !hasForbiddenControl(text);
}

/** Signs `text` (which must end in a newline) and returns the whole signed note. */
export async function signNote(text: string, signer: NoteSigner): Promise<string> {
  if (!isValidText(text))
    throw new TypeError('note text must be well-formed, end in "\\n", and hold no controls');
  const signature = await signEd25519(signer.privateKey, utf8(text));
  return `${text}\n${formatSignatureLine(signer.name, signer.keyId, signature)}`;
}

export interface NoteSignatureLine {
  name: string;
  /** The 4-byte key ID, as 8 lowercase hex digits. */
  keyId: string;
  /** What follows the key ID in the signature blob. */
  signature: Bytes;
  /** The whole line, without its newline. */
  line: string;
}

export interface SplitNote {
  text: string;
  signatures: NoteSignatureLine[];
}

/**
 * A note's text and its signature lines, each well-formed (the key's name, a blob of a key ID and at
 * least one byte); verifying them is the caller's business.
 */
export function splitNote(note: string): CheckResult<SplitNote> {
  if (hasLoneSurrogate(note) || hasForbiddenControl(note)) return fail('note is not text without controls');
  const split = note.lastIndexOf('\n\n');
  if (split < 0 || !note.endsWith('\n')) return fail('note has no signature block');
  const text = note.slice(0, split + 1);
  const lines = note.slice(split + 2, -1).split('\n');
  if (lines.length > MAX_SIGNATURES) return fail('note has too many signatures');
  const signatures: NoteSignatureLine[] = [];
  for (const line of lines) {
    if (!line.startsWith(SIGNATURE_PREFIX)) return fail('malformed signature line');
    const rest = line.slice(SIGNATURE_PREFIX.length);
    const space = rest.indexOf(' ');
    const name = rest.slice(0, space);
    const blob = decodeBase64(rest.slice(space + 1));
    if (space < 0 || !isValidKeyName(name) || blob === null || blob.length < 5) {
      return fail('malformed signature line');
    }
    signatures.push({ name, keyId: bytesToHex(blob.subarray(0, 4)), signature: blob.slice(4), line });
  }
  return pass({ text, signatures });
}

/** A signature line for `name`'s key ID and signature blob, with its newline. */
export function formatSignatureLine(name: string, keyId: Uint8Array, signature: Uint8Array): string {
  return `${SIGNATURE_PREFIX}${name} ${encodeBase64(concatBytes(keyId, signature))}\n`;
}

/**
 * `note` with the signature lines of `lines` (each ending in a newline) it does not hold yet appended,
 * as a log adds cosignatures to its checkpoint.
 */
export function addSignatureLines(note: string, lines: readonly string[]): string {
  const held = new Set(note.split('\n').map((line) => `${line}\n`));
  return note + lines.filter((line) => !held.has(line)).join('');
}

export interface OpenedNote {
  text: string;
  /** Names of the given verifiers whose signatures verified. */
  verifiedBy: string[];
}

/**
 * Opens a signed note against trusted verifiers, following the spec: signatures from unknown keys (name
 * and key ID not both matching) are ignored, a known key's failing signature rejects the note, and a
 * note with no verified signature is rejected. Stricter than Go's note.Open, which skips a repeated
 * signature line of a key it has already verified: here every line of a known key must verify.
 */
export async function openNote(
  note: string,
  verifiers: readonly NoteVerifier[],
): Promise<CheckResult<OpenedNote>> {
  const split = splitNote(note);
  if (!split.ok) return split;
  const { text, signatures } = split.value;
  const verifiedBy: string[] = [];
  const seen = new Set<string>();
  for (const { name, keyId, signature } of signatures) {
    const verifier = verifiers.find((v) => v.name === name && bytesToHex(v.keyId) === keyId);
    if (verifier === undefined) continue;
    if (!(await verifyEd25519(verifier.publicKey, utf8(text), signature))) {
      return fail(`signature by ${name} does not verify`);
    }
    if (!seen.has(`${name}+${keyId}`)) verifiedBy.push(name);
    seen.add(`${name}+${keyId}`);
  }
  if (verifiedBy.length === 0) return fail('no signature from a trusted key');
  return pass({ text, verifiedBy });
}
