import { sha256 } from '@noble/hashes/sha2.js';
import { type Bytes, concatBytes } from '../encoding/bytes';
import { hexToBytes } from '../encoding/hex';
import { utf8 } from '../encoding/utf8';

// Audit records share the receipt log, under their own entry prefix so the two kinds never collide:
//   E_audit = SHA-256("valve-audit/v1/entry" || 0x00 || record hash (32 bytes))
// The record hash (audit-chain.ts) commits to the whole record, its seq and the previous hash, so a
// logged record can be neither rewritten nor dropped from the chain without the log showing it.

const AUDIT_ENTRY_PREFIX = concatBytes(utf8('valve-audit/v1/entry'), new Uint8Array([0]));

/** The log entry of an audit record, from its hex `hash`; a malformed hash is a caller's bug. */
export function auditEntryHash(recordHashHex: string): Bytes {
  const hash = hexToBytes(recordHashHex);
  if (hash === null || hash.length !== 32) throw new TypeError('an audit record hash is 64 hex digits');
  return sha256(concatBytes(AUDIT_ENTRY_PREFIX, hash)) as Bytes;
}
