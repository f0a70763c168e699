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

export function noteKeyId(name: string, publicKey: Uint8Array): Bytes {
  const digest = sha256(concatBytes(utf8(name), new Uint8Array([0x0a, ED25519_TYPE]), publicKey));
  return digest.slice(0, 4) as Bytes;
}

export function formatVerifierKey(name: string, publicKey: Uint8Array): string {
  const typed = concatBytes(new Uint8Array([ED25519_TYPE]), publicKey);
  return `${name}+${bytesToHex(noteKeyId(name, publicKey))}+${encodeBase64(typed)}`;
}

export function parseVerifierKey(vkey: string): CheckResult<NoteVerifier> {
  const first = vkey.indexOf('+');
  const second = vkey.indexOf('+', first + 1);
  if (first < 0 || second < 0) return fail('verifier key is not name+hash+key');
  const name = vkey.slice(0, first);
  const hash = vkey.slice(first + 1, second);
  const typed = decodeBase64(vkey.slice(second + 1));
  if (!isValidKeyName(name)) return fail('verifier key name is not valid');
  if (!/^[0-9a-f]{8}$/.test(hash)) return fail('verifier key hash is not 8 lowercase hex digits');
  if (typed === null || typed.length !== 33 || typed[0] !== ED25519_TYPE) {
    return fail('verifier key is not an Ed25519 (type 0x01) key');
  }
  const publicKey = typed.slice(1);
  const keyId = noteKeyId(name, publicKey);
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
  return `${text}\n${SIGNATURE_PREFIX}${signer.name} ${encodeBase64(concatBytes(signer.keyId, signature))}\n`;
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
  if (hasLoneSurrogate(note) || hasForbiddenControl(note)) return fail('note is not text without controls');
  const split = note.lastIndexOf('\n\n');
  if (split < 0 || !note.endsWith('\n')) return fail('note has no signature block');
  const text = note.slice(0, split + 1);
  const lines = note.slice(split + 2, -1).split('\n');
  if (lines.length > MAX_SIGNATURES) return fail('note has too many signatures');
  const verifiedBy: string[] = [];
  const seen = new Set<string>();
  for (const line of lines) {
    if (!line.startsWith(SIGNATURE_PREFIX)) return fail('malformed signature line');
    const rest = line.slice(SIGNATURE_PREFIX.length);
    const space = rest.indexOf(' ');
    const name = rest.slice(0, space);
    const blob = decodeBase64(rest.slice(space + 1));
    if (space < 0 || !isValidKeyName(name) || blob === null || blob.length < 5) {
      return fail('malformed signature line');
    }
    const keyId = bytesToHex(blob.subarray(0, 4));
    const verifier = verifiers.find((v) => v.name === name && bytesToHex(v.keyId) === keyId);
    if (verifier === undefined) continue;
    if (!(await verifyEd25519(verifier.publicKey, utf8(text), blob.slice(4)))) {
      return fail(`signature by ${name} does not verify`);
    }
    if (!seen.has(`${name}+${keyId}`)) verifiedBy.push(name);
    seen.add(`${name}+${keyId}`);
  }
  if (verifiedBy.length === 0) return fail('no signature from a trusted key');
  return pass({ text, verifiedBy });
}
