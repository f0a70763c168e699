import type { Bytes } from '../encoding/bytes';
import { type CheckResult, fail, pass } from '../encoding/check-result';
import { bytesToHex } from '../encoding/hex';
import { utf8 } from '../encoding/utf8';
import { importEd25519SigningKey, signEd25519, verifyEd25519 } from '../signing/keys';
import {
  formatSignatureLine,
  formatVerifierKey,
  isValidKeyName,
  type NoteVerifier,
  noteKeyId,
  parseVerifierKey,
  splitNote,
} from './signed-note';

// C2SP tlog-cosignature v1 with Ed25519 (c2sp.org/tlog-cosignature): a witness's note signature on a
// checkpoint, saying that as of `time` this is the largest consistent tree it has seen for the origin.
//   key ID     = SHA-256(name || "\n" || 0x04 || public key)[:4]
//   message    = "cosignature/v1\n" || "time " decimal seconds "\n" || checkpoint text (without signatures)
//   signature  = key ID || u64 big-endian timestamp || Ed25519(message)
// A cosigner's verifier key is name+hash+base64(0x04 || public key).

export const COSIGNATURE_TYPE = 0x04;
const MAX_TIMESTAMP = 2n ** 63n - 1n;

export type Cosigner = NoteVerifier;

export interface CosignerSigner extends Cosigner {
  privateKey: CryptoKey;
}

export function formatCosignerKey(name: string, publicKey: Uint8Array): string {
  return formatVerifierKey(name, publicKey, COSIGNATURE_TYPE);
}

export function parseCosignerKey(vkey: string): CheckResult<Cosigner> {
  return parseVerifierKey(vkey, COSIGNATURE_TYPE);
}

/** A cosigner named `name` from an Ed25519 PKCS#8 private key (base64 or DER). */
export async function createCosigner(name: string, pkcs8: string | Uint8Array): Promise<CosignerSigner> {
  if (!isValidKeyName(name)) throw new TypeError('a cosigner name must be non-empty without spaces or "+"');
  const key = await importEd25519SigningKey(pkcs8);
  return {
    name,
    keyId: noteKeyId(name, key.publicKey, COSIGNATURE_TYPE),
    publicKey: key.publicKey,
    privateKey: key.privateKey,
  };
}

/** The message a v1 cosignature signs: the header, the time line, and the checkpoint's text. */
export function cosignedMessage(checkpointText: string, timestamp: number): Bytes {
  return utf8(`cosignature/v1\ntime ${timestamp}\n${checkpointText}`);
}

function timestampBytes(timestamp: number): Bytes {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, BigInt(timestamp));
  return out;
}

/**
 * The cosignature line (ending in a newline) of `signer` on a checkpoint's text (the note's body,
 * without signature lines), at `timestamp` seconds since the Epoch.
 */
export async function cosignCheckpoint(
  checkpointText: string,
  signer: CosignerSigner,
  timestamp: number,
): Promise<string> {
  if (!Number.isSafeInteger(timestamp) || timestamp < 0) throw new TypeError('a timestamp is whole seconds');
  const signature = await signEd25519(signer.privateKey, cosignedMessage(checkpointText, timestamp));
  const blob = new Uint8Array(72);
  blob.set(timestampBytes(timestamp), 0);
  blob.set(signature, 8);
  return formatSignatureLine(signer.name, signer.keyId, blob);
}

export interface Cosignature {
  /** The cosigner's name. */
  name: string;
  /** When it cosigned, in seconds since the Epoch. */
  timestamp: number;
}

export interface CosignedNote {
  text: string;
  /** One per cosigner of `cosigners` that signed, in the note's order, with its latest timestamp. */
  cosignatures: Cosignature[];
}

/**
 * The cosignatures on a signed checkpoint by the given cosigners. As for any note, lines of unknown
 * keys (name and key ID not both matching) are ignored, and a known cosigner's line that does not
 * verify rejects the note: a witness's key signing something it did not sign is news.
 */
export async function readCosignatures(
  note: string,
  cosigners: readonly Cosigner[],
): Promise<CheckResult<CosignedNote>> {
  const split = splitNote(note);
  if (!split.ok) return split;
  const { text, signatures } = split.value;
  const found = new Map<string, Cosignature>();
  for (const { name, keyId, signature } of signatures) {
    const cosigner = cosigners.find((c) => c.name === name && bytesToHex(c.keyId) === keyId);
    if (cosigner === undefined) continue;
    if (signature.length !== 72) return fail(`cosignature by ${name} is not a timestamped Ed25519 signature`);
    const timestamp = new DataView(signature.buffer, signature.byteOffset, 8).getBigUint64(0);
    if (timestamp > MAX_TIMESTAMP || timestamp > BigInt(Number.MAX_SAFE_INTEGER)) {
      return fail(`cosignature by ${name} has a timestamp past 2^53 seconds`);
    }
    const seconds = Number(timestamp);
    const message = cosignedMessage(text, seconds);
    if (!(await verifyEd25519(cosigner.publicKey, message, signature.slice(8)))) {
      return fail(`cosignature by ${name} does not verify`);
    }
    const key = `${name}+${keyId}`;
    if ((found.get(key)?.timestamp ?? -1) < seconds) found.set(key, { name, timestamp: seconds });
  }
  return pass({ text, cosignatures: [...found.values()] });
}

export interface WitnessPolicy {
  /** The cosigners the auditor trusts, as verifier keys of type 0x04. */
  witnesses: readonly string[];
  /** How many of them must have cosigned. */
  quorum: number;
}

export interface WitnessFinding {
  ok: boolean;
  /** Which trusted witnesses cosigned, and when. */
  cosignedBy: Cosignature[];
  detail: string;
}

/** Whether a checkpoint note carries at least `quorum` cosignatures from the policy's witnesses. */
export async function checkWitnessPolicy(note: string, policy: WitnessPolicy): Promise<WitnessFinding> {
  const cosigners: Cosigner[] = [];
  for (const vkey of policy.witnesses) {
    const parsed = parseCosignerKey(vkey);
    if (!parsed.ok) return { ok: false, cosignedBy: [], detail: `witness key ${vkey}: ${parsed.reason}` };
    cosigners.push(parsed.value);
  }
  const read = await readCosignatures(note, cosigners);
  if (!read.ok) return { ok: false, cosignedBy: [], detail: read.reason };
  const { cosignatures } = read.value;
  const names = cosignatures.map((c) => c.name);
  const signed = names.length === 0 ? 'none of them cosigned' : `cosigned by ${names.join(', ')}`;
  const ok = cosignatures.length >= policy.quorum;
  return {
    ok,
    cosignedBy: cosignatures,
    detail: `${cosignatures.length} of the ${cosigners.length} trusted witnesses (${policy.quorum} required): ${signed}`,
  };
}
