import { ITEM_LISTS, itemName, RECEIPT_FIELDS_V1 } from '../contracts/receipt-field-names';
import { encodeBase64Url } from '../encoding/base64';
import { type Bytes, concatBytes, timingSafeEqual } from '../encoding/bytes';
import { hmacKey, hmacOnce, hmacParts } from '../encoding/hmac-sha256';
import { utf8 } from '../encoding/utf8';
import { hkdfSha256, hmacSha256 } from './hkdf-hmac';
import { canonicalJson, canonicalJsonAsSent, type JsonValue } from './jcs';
import { uuidToBytes } from './uuid';

// The commitments, byte for byte (HKDF: RFC 5869, HMAC: RFC 2104, JCS: RFC 8785; README "For auditors"):
//   S   = UTF8(receiptSalt)
//   K_f = HKDF-SHA256(IKM = S, salt = "valve-receipt/v1/kdf", info = "valve-receipt/v1/field" || 0x00 || rid16 || UTF8(f), L = 32)
//   C_f = HMAC-SHA256(K_f, "valve-receipt/v1/commit" || 0x00 || UTF8(f) || 0x00 || UTF8(JCS(value_f)))
// The salt only ever enters HKDF as input key material, never an HMAC key or HKDF salt slot.

/**
 * Values to commit, by committed name; an absent one commits to JSON null. A value is committed as
 * JSON.stringify would send it (undefined members dropped, toJSON followed), so a response value can
 * be given as it is.
 */
export type FieldValues = Partial<Record<string, JsonValue>>;
/** base64url(C_f) for every committed name. */
export type Commitments = Record<string, string>;

const KDF_SALT = utf8('valve-receipt/v1/kdf');
const FIELD_INFO = utf8('valve-receipt/v1/field');
const REPLAY_INFO = utf8('valve-receipt/v1/replay');
const COMMIT_LABEL = utf8('valve-receipt/v1/commit');
const ZERO = new Uint8Array([0]);

/** A fresh Valve-generated salt: 32 random bytes as base64url (43 characters). */
export function generateReceiptSalt(): string {
  return encodeBase64Url(crypto.getRandomValues(new Uint8Array(32)));
}

/** K_f: handing it to an auditor opens `field` (a field or an item) of receipt `rid` and nothing else. */
export async function deriveFieldKey(salt: string, rid: string, field: string): Promise<Bytes> {
  const info = concatBytes(FIELD_INFO, ZERO, uuidToBytes(rid), utf8(field));
  return hkdfSha256(utf8(salt), KDF_SALT, info, 32);
}

/** C_f under a field key. */
export function commitField(fieldKey: Bytes, field: string, value: JsonValue): Promise<Bytes> {
  const message = concatBytes(COMMIT_LABEL, ZERO, utf8(field), ZERO, utf8(canonicalJson(value)));
  return hmacSha256(fieldKey, message);
}

// Per committed name, the constant bytes its key and commitment start with, built once per isolate
// (item names such as `req.context[7]` too, up to a bound, so the cache cannot grow without limit).
interface NameBytes {
  field: Uint8Array;
  commitPrefix: Uint8Array;
}
const NAME_BYTES = new Map<string, NameBytes>();
const MAX_CACHED_NAMES = 4096;
function bytesOfName(name: string): NameBytes {
  const cached = NAME_BYTES.get(name);
  if (cached) return cached;
  const field = utf8(name);
  const bytes = { field, commitPrefix: concatBytes(COMMIT_LABEL, ZERO, field, ZERO) };
  if (NAME_BYTES.size < MAX_CACHED_NAMES) NAME_BYTES.set(name, bytes);
  return bytes;
}
const FIELD_INFO_PREFIX = concatBytes(FIELD_INFO, ZERO);
const ONE = new Uint8Array([1]);
const OPEN = utf8('[');
const COMMA = utf8(',');
const CLOSE = utf8(']');
const ITEM_LIST_NAMES: readonly string[] = ITEM_LISTS;

/**
 * UTF8(JCS(value)) of every committed name, as the parts that make it up: each value is canonicalised
 * and encoded once. A list whose items are committed one by one too (v2's `req.context[i]`) is, byte
 * for byte, `[` item `,` item … `]` of its items' own encodings, so it is given as those parts and its
 * items are not canonicalised a second time. (An item given as another value than the list's own
 * element is encoded on its own, so the parts are always those of the values given.)
 */
function encodedParts(values: FieldValues) {
  const encoded = new Map<string, Uint8Array>();
  const encode = (name: string): Uint8Array => {
    let bytes = encoded.get(name);
    if (bytes === undefined) {
      bytes = utf8(canonicalJsonAsSent(values[name] ?? null));
      encoded.set(name, bytes);
    }
    return bytes;
  };
  return (name: string): Uint8Array[] => {
    const list = values[name];
    if (!ITEM_LIST_NAMES.includes(name) || !Array.isArray(list)) return [encode(name)];
    if (!list.every((item, i) => values[itemName(name as (typeof ITEM_LISTS)[number], i)] === item)) {
      return [encode(name)];
    }
    const parts: Uint8Array[] = [OPEN];
    list.forEach((_, i) => {
      if (i > 0) parts.push(COMMA);
      parts.push(encode(itemName(name as (typeof ITEM_LISTS)[number], i)));
    });
    parts.push(CLOSE);
    return parts;
  };
}

// HKDF's extract is keyed by the constant KDF salt: its inner and outer states are made once.
const KDF_KEY = hmacKey(KDF_SALT);

/**
 * The `cmt` member of a receipt body: every name given (by default the v1 fields), in that order. The
 * same bytes as `deriveFieldKey` and `commitField` name by name, with the work they share done once:
 * HKDF's extract step (PRK = HMAC(KDF_SALT, S)) is the same for every name of a receipt, so it runs
 * once and each K_f is its one-block expand, T(1) = HMAC(PRK, info_f || 0x01), under the PRK's states
 * made once; each value is canonicalised and UTF-8 encoded once, and no message is concatenated.
 */
export async function commitAll(
  salt: string,
  rid: string,
  values: FieldValues,
  names: readonly string[] = RECEIPT_FIELDS_V1,
): Promise<Commitments> {
  const prk = hmacKey(hmacParts(KDF_KEY, [utf8(salt)]));
  const rid16 = uuidToBytes(rid);
  const partsOf = encodedParts(values);
  const out: Commitments = {};
  for (const name of names) {
    const { field, commitPrefix } = bytesOfName(name);
    const fieldKey = hmacParts(prk, [FIELD_INFO_PREFIX, rid16, field, ONE]);
    out[name] = encodeBase64Url(hmacOnce(fieldKey, [commitPrefix, ...partsOf(name)]));
  }
  return out;
}

/** Whether `value` opens the commitment C_f (base64url), compared in constant time. */
export async function matchesCommitment(
  commitment: Uint8Array,
  fieldKey: Bytes,
  field: string,
  value: JsonValue,
): Promise<boolean> {
  return timingSafeEqual(await commitField(fieldKey, field, value), commitment);
}

/** The 32-byte replay key, HKDF(S, "valve-receipt/v1/kdf", "valve-receipt/v1/replay" || 0x00 || rid16). */
export async function deriveReplayKey(salt: string, rid: string): Promise<Bytes> {
  return hkdfSha256(utf8(salt), KDF_SALT, concatBytes(REPLAY_INFO, ZERO, uuidToBytes(rid)), 32);
}
