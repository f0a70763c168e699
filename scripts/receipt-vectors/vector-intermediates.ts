import { decodeBase64Url, encodeBase64, encodeBase64Url } from '../../src/encoding/base64';
import { concatBytes } from '../../src/encoding/bytes';
import { bytesToHex } from '../../src/encoding/hex';
import { decodeUtf8, utf8 } from '../../src/encoding/utf8';
import { entryHash, leafHash } from '../../src/log/merkle';
import { commitField, deriveFieldKey, type FieldValues } from '../../src/receipts/commitments';
import { hmacSha256 } from '../../src/receipts/hkdf-hmac';
import { canonicalJson, type JsonValue } from '../../src/receipts/jcs';
import { uuidToBytes } from '../../src/receipts/uuid';

// The values between a receipt's inputs and its bytes, for someone writing a verifier in another
// language to compare theirs with step by step: each name's HKDF info, K_f, JCS text and C_f; the
// payload, header and signing input; the entry and leaf hashes. Each C_f is checked against the
// signed receipt's own `cmt`, so an intermediate that disagrees with what Valve issued cannot be
// written.

interface NameIntermediates {
  /** HKDF info: "valve-receipt/v1/field" || 0x00 || rid16 || UTF8(name), in hex. */
  info: string;
  /** K_f, base64url. */
  key: string;
  /** JCS(value), the text whose UTF-8 bytes end the HMAC message. */
  jcs: string;
  /** The whole HMAC message, in hex. */
  message: string;
  /** C_f = HMAC-SHA256(K_f, message), base64url: equal to the receipt's cmt[name]. */
  commitment: string;
}

export async function intermediatesOf(parts: {
  jws: string;
  salt: string;
  rid: string;
  names: readonly string[];
  values: FieldValues;
  log: { index: number; treeSize: number; path: string[]; root: string };
}) {
  const [header = '', payload = '', signature = ''] = parts.jws.split('.');
  const payloadBytes = decodeBase64Url(payload);
  const headerBytes = decodeBase64Url(header);
  if (payloadBytes === null || headerBytes === null) throw new TypeError('the JWS is not base64url');
  const body = JSON.parse(decodeUtf8(payloadBytes) ?? '') as { cmt: Record<string, string> };
  const rid16 = uuidToBytes(parts.rid);
  const names: Record<string, NameIntermediates> = {};
  for (const name of parts.names) {
    // The value as it travels in JSON (undefined members dropped), as an auditor receives it.
    const value = JSON.parse(JSON.stringify(parts.values[name] ?? null)) as JsonValue;
    const key = await deriveFieldKey(parts.salt, parts.rid, name);
    const commitment = encodeBase64Url(await commitField(key, name, value));
    if (commitment !== body.cmt[name]) throw new Error(`C_${name} is not the receipt's commitment`);
    const jcs = canonicalJson(value);
    names[name] = {
      info: bytesToHex(concatBytes(utf8('valve-receipt/v1/field'), new Uint8Array([0]), rid16, utf8(name))),
      key: encodeBase64Url(key),
      jcs,
      message: bytesToHex(
        concatBytes(
          utf8('valve-receipt/v1/commit'),
          new Uint8Array([0]),
          utf8(name),
          new Uint8Array([0]),
          utf8(jcs),
        ),
      ),
      commitment,
    };
  }
  const entry = entryHash(payloadBytes);
  return {
    salt: parts.salt,
    saltUtf8: bytesToHex(utf8(parts.salt)),
    rid: parts.rid,
    rid16: bytesToHex(rid16),
    /** HKDF-Extract: PRK = HMAC-SHA256(key = "valve-receipt/v1/kdf", message = S), in hex. */
    prk: bytesToHex(await hmacSha256(utf8('valve-receipt/v1/kdf'), utf8(parts.salt))),
    names,
    /** The JWS protected header and payload as text (their UTF-8 bytes are what is base64url-encoded). */
    header: decodeUtf8(headerBytes),
    payload: decodeUtf8(payloadBytes),
    /** The bytes Ed25519 signs: ASCII of base64url(header) "." base64url(payload). */
    signingInput: `${header}.${payload}`,
    signature: bytesToHex(decodeBase64Url(signature) ?? new Uint8Array()),
    /** SHA-256("valve-receipt/v1/entry" || 0x00 || payload), in hex. */
    entryHash: bytesToHex(entry),
    /** SHA-256(0x00 || entry hash), in hex and base64. */
    leafHash: bytesToHex(leafHash(entry)),
    leafHashBase64: encodeBase64(leafHash(entry)),
    log: parts.log,
  };
}
