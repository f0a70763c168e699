import { sha256 } from '@noble/hashes/sha2.js';
import { concatBytes } from '../encoding/bytes';
import { bytesToHex } from '../encoding/hex';
import { utf8 } from '../encoding/utf8';
import { canonicalJson, type JsonValue as Json } from '../receipts/jcs';

// The administrative audit trail: AuditRecords (who did what to which key or budget, when) in a hash chain.
//   hash      = hex(SHA-256("valve-audit/v1" || 0x00 || JCS(record without hash)))
//   prev_hash = the previous record's hash; for seq 1, hex(SHA-256("valve-audit/v1/genesis"))

/** A detail value: flat on purpose (audit details are ids, names, limits), and RPC-serializable. */
export type JsonValue = string | number | boolean | null | string[];

export interface AuditRecord {
  seq: number;
  at_ms: number;
  action: string;
  actor?: string;
  subject?: string;
  outcome?: string;
  details?: Record<string, JsonValue>;
  prev_hash: string;
  hash: string;
}

export type AuditRecordBody = Omit<AuditRecord, 'hash'>;

function sha256Hex(bytes: Uint8Array): string {
  return bytesToHex(sha256(bytes));
}

export function genesisHash(): string {
  return sha256Hex(utf8('valve-audit/v1/genesis'));
}

export function hashAuditRecord(body: AuditRecordBody): string {
  return sha256Hex(
    concatBytes(utf8('valve-audit/v1'), new Uint8Array([0]), utf8(canonicalJson(body as unknown as Json))),
  );
}

export interface ChainCheck {
  ok: boolean;
  /** The first seq at which the chain breaks, and why. */
  brokenAt?: { seq: number; reason: string };
}

/** Checks a chain from its first record: contiguous seq, each prev_hash links, each hash recomputes. */
export function verifyAuditChain(records: readonly AuditRecord[]): ChainCheck {
  let prev = genesisHash();
  let expectedSeq = 1;
  for (const record of records) {
    if (record.seq !== expectedSeq)
      return { ok: false, brokenAt: { seq: record.seq, reason: `expected seq ${expectedSeq}` } };
    if (record.prev_hash !== prev)
      return { ok: false, brokenAt: { seq: record.seq, reason: 'prev_hash does not link' } };
    const { hash, ...body } = record;
    if (hashAuditRecord(body) !== hash)
      return { ok: false, brokenAt: { seq: record.seq, reason: 'hash does not match the record' } };
    prev = hash;
    expectedSeq++;
  }
  return { ok: true };
}
