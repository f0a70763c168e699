import { sha256 } from '@noble/hashes/sha2.js';
import type { ReasonRequest } from '../contracts/reason-request';
import type { Bytes } from '../encoding/bytes';
import { utf8 } from '../encoding/utf8';
import { canonicalJson, type JsonValue } from '../receipts/jcs';

/** SHA-256 of the JCS of the request without its salt; held in memory only, never stored as is. */
export function requestDigest(request: ReasonRequest): Bytes {
  const { receiptSalt: _salt, ...rest } = request;
  return sha256(utf8(canonicalJson(rest as JsonValue))) as Bytes;
}
