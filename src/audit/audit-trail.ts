import { DurableObject } from 'cloudflare:workers';
import { auditEntryHash } from '../log/audit-entry';
import { logOriginOf } from '../log/log-settings';
import { type AuditRecord, genesisHash, hashAuditRecord, type JsonValue } from './audit-chain';

export interface AuditEvent {
  action: string;
  actor?: string;
  subject?: string;
  outcome?: string;
  details?: Record<string, JsonValue>;
}

type Row = {
  seq: number;
  at_ms: number;
  action: string;
  actor: string | null;
  subject: string | null;
  outcome: string | null;
  details: string | null;
  prev_hash: string;
  hash: string;
};

function fromRow(row: Row): AuditRecord {
  return {
    seq: row.seq,
    at_ms: row.at_ms,
    action: row.action,
    ...(row.actor === null ? {} : { actor: row.actor }),
    ...(row.subject === null ? {} : { subject: row.subject }),
    ...(row.outcome === null ? {} : { outcome: row.outcome }),
    ...(row.details === null ? {} : { details: JSON.parse(row.details) as Record<string, JsonValue> }),
    prev_hash: row.prev_hash,
    hash: row.hash,
  };
}

/** The audit trail's single writer: records are appended one at a time, so `seq` and the chain never fork. */
export class AuditTrail extends DurableObject<Env> {
  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    ctx.storage.sql.exec(`CREATE TABLE IF NOT EXISTS records (
      seq INTEGER PRIMARY KEY, at_ms INTEGER NOT NULL, action TEXT NOT NULL, actor TEXT, subject TEXT,
      outcome TEXT, details TEXT, prev_hash TEXT NOT NULL, hash TEXT NOT NULL)`);
    // Schema v2: each record's index in the Merkle log (null until its append is confirmed).
    const columns = ctx.storage.sql.exec<{ name: string }>('PRAGMA table_info(records)').toArray();
    if (!columns.some((c) => c.name === 'log_index')) {
      ctx.storage.sql.exec('ALTER TABLE records ADD COLUMN log_index INTEGER');
    }
  }

  /**
   * Chains the record (synchronous from read to write, so concurrent appends can never share a seq or
   * a prev_hash), then appends its hash to the Merkle log and keeps its log index.
   */
  async append(event: AuditEvent): Promise<AuditRecord> {
    const record = this.chain(event);
    const origin = logOriginOf(this.env);
    const { index } = await this.env.RECEIPT_LOG.getByName(origin).append(auditEntryHash(record.hash));
    this.ctx.storage.sql.exec('UPDATE records SET log_index = ? WHERE seq = ?', index, record.seq);
    return record;
  }

  /** Each record's hash and log index, for the log proofs of GET /v1/admin/audit/proofs. */
  logged(afterSeq: number, limit: number): { seq: number; hash: string; logIndex: number | null }[] {
    return this.ctx.storage.sql
      .exec<{ seq: number; hash: string; log_index: number | null }>(
        'SELECT seq, hash, log_index FROM records WHERE seq > ? ORDER BY seq LIMIT ?',
        afterSeq,
        limit,
      )
      .toArray()
      .map((row) => ({ seq: row.seq, hash: row.hash, logIndex: row.log_index }));
  }

  private chain(event: AuditEvent): AuditRecord {
    const last = this.ctx.storage.sql
      .exec<{ seq: number; hash: string }>('SELECT seq, hash FROM records ORDER BY seq DESC LIMIT 1')
      .toArray()[0];
    const body = {
      seq: (last?.seq ?? 0) + 1,
      at_ms: Date.now(),
      action: event.action,
      ...(event.actor === undefined ? {} : { actor: event.actor }),
      ...(event.subject === undefined ? {} : { subject: event.subject }),
      ...(event.outcome === undefined ? {} : { outcome: event.outcome }),
      ...(event.details === undefined ? {} : { details: event.details }),
      prev_hash: last?.hash ?? genesisHash(),
    };
    const record: AuditRecord = { ...body, hash: hashAuditRecord(body) };
    this.ctx.storage.sql.exec(
      'INSERT INTO records (seq, at_ms, action, actor, subject, outcome, details, prev_hash, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
      record.seq,
      record.at_ms,
      record.action,
      record.actor ?? null,
      record.subject ?? null,
      record.outcome ?? null,
      record.details === undefined ? null : JSON.stringify(record.details),
      record.prev_hash,
      record.hash,
    );
    return record;
  }

  list(afterSeq: number, limit: number): AuditRecord[] {
    return this.ctx.storage.sql
      .exec<Row>('SELECT * FROM records WHERE seq > ? ORDER BY seq LIMIT ?', afterSeq, limit)
      .toArray()
      .map(fromRow);
  }
}
