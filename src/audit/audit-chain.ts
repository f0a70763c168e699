import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import canonicalize from 'canonicalize';

// The administrative audit trail: seed-000 AuditRecords in a hash chain.
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

const encoder = new TextEncoder();

function sha256Hex(bytes: Uint8Array): string {
  return bytesToHex(sha256(bytes));
}

export function genesisHash(): string {
  return sha256Hex(encoder.encode('valve-audit/v1/genesis'));
}

export function hashAuditRecord(body: AuditRecordBody): string {
  const jcs = canonicalize(body);
  if (jcs === undefined) throw new Error('an audit record must be JSON');
  const prefix = encoder.encode('valve-audit/v1');
  const data = encoder.encode(jcs);
  const bytes = new Uint8Array(prefix.length + 1 + data.length);
  bytes.set(prefix, 0);
  bytes[prefix.length] = 0;
  bytes.set(data, prefix.length + 1);
  return sha256Hex(bytes);
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
