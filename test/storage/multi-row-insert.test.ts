import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { writeReceiptRow, writeUsage } from '../../src/background/write-behind';
import { MAX_BOUND_PARAMETERS, multiRowInserts } from '../../src/storage/multi-row-insert';
import { findReceipt, type IssuedRow, issuedReceiptStatements } from '../../src/storage/receipts';
import { type UsageRecord, usageInserts } from '../../src/storage/usage-records';

// Rows written behind the answer go several to an INSERT, within D1's 100 bound parameters.

/** A D1 stand-in that records what each statement was prepared with and bound to. */
function recordingDb() {
  const statements: { sql: string; values: unknown[] }[] = [];
  const db = {
    prepare(sql: string) {
      return {
        bind(...values: unknown[]) {
          statements.push({ sql, values });
          return {};
        },
      };
    },
  } as unknown as D1Database;
  return { db, statements };
}

const usage = (n: number, tenant = 'rows-usage'): UsageRecord => ({
  tenant,
  key: `key-${n}`,
  route: '/v1/reason',
  model: 'sim/fast',
  input_tokens: n,
  output_tokens: 2 * n,
  latency_ms: 3.6,
  outcome: 'ok',
  fallbacks: 0,
  stream: n % 2 === 0,
  cost_usd: n / 1000,
  created_at: Date.UTC(2026, 11, 1, 12) + n,
});

const receipt = (n: number, tenant = 'rows-receipts'): IssuedRow => ({
  tenant,
  id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  saltGenerated: true,
  logOrigin: 'valve.local/log/0',
  logIndex: n,
  kid: 'kid-1',
  iat: Date.UTC(2026, 11, 1, 12) + n,
  provider: 'sim',
  model: 'fast',
  region: 'us',
  costUsd: n / 1000,
  jws: `jws-${n}`,
  proof: null,
  replay: null,
  replayExpiresAt: null,
});

describe('multi-row inserts', () => {
  it('puts as many whole rows in a statement as 100 parameters hold, every row once and in order', () => {
    const { db, statements } = recordingDb();
    const shape = {
      head: 'INSERT INTO t (a, b, c) VALUES',
      row: "(?, ?, 'x', ?)",
      tail: 'ON CONFLICT DO NOTHING',
    };
    const rows = Array.from({ length: 70 }, (_, i) => [i, `b${i}`, i * 2]);
    multiRowInserts(db, shape, rows);
    expect(statements.map((s) => s.values.length)).toEqual([99, 99, 12]);
    expect(statements.flatMap((s) => s.values)).toEqual(rows.flat());
    expect(statements[2]?.sql).toBe(
      "INSERT INTO t (a, b, c) VALUES (?, ?, 'x', ?), (?, ?, 'x', ?), (?, ?, 'x', ?), (?, ?, 'x', ?) ON CONFLICT DO NOTHING",
    );
    for (const { values } of statements) expect(values.length).toBeLessThanOrEqual(MAX_BOUND_PARAMETERS);
  });

  it('writes no statement for no rows, and refuses a row of the wrong width', () => {
    const { db, statements } = recordingDb();
    const shape = { head: 'INSERT INTO t (a, b) VALUES', row: '(?, ?)', tail: '' };
    expect(multiRowInserts(db, shape, [])).toEqual([]);
    expect(() => multiRowInserts(db, shape, [[1, 2], [3]])).toThrow(/every row binds 2 parameters, not 1/);
    expect(statements).toEqual([]);
  });

  it('stores 20 usage records with 3 statements and 20 receipts with 4, each row as given', async () => {
    const records = Array.from({ length: 20 }, (_, i) => usage(i + 1));
    const receipts = Array.from({ length: 20 }, (_, i) => receipt(i + 1));
    const statements = [...usageInserts(env.DB, records), ...issuedReceiptStatements(env.DB, receipts)];
    expect(statements).toHaveLength(3 + 4);
    await env.DB.batch(statements);
    const stored = await env.DB.prepare(
      "SELECT key_id, input_tokens, output_tokens, latency_ms, stream, day FROM usage_records WHERE tenant = 'rows-usage' ORDER BY input_tokens",
    ).all<{
      key_id: string;
      input_tokens: number;
      output_tokens: number;
      latency_ms: number;
      stream: number;
      day: string;
    }>();
    expect(stored.results).toEqual(
      records.map((r) => ({
        key_id: r.key,
        input_tokens: r.input_tokens,
        output_tokens: r.output_tokens,
        latency_ms: 4,
        stream: r.stream ? 1 : 0,
        day: '2026-12-01',
      })),
    );
    for (const row of receipts) {
      const found = await findReceipt(env.DB, row.tenant, row.id);
      expect([found?.state, found?.log_index, found?.jws, found?.iat]).toEqual([
        'issued',
        row.logIndex,
        row.jws,
        row.iat,
      ]);
    }
  });

  it('writes a write-behind batch of receipts and usage from many requests, never over an existing row', async () => {
    const kept = receipt(99, 'rows-batch');
    await env.DB.batch(issuedReceiptStatements(env.DB, [{ ...kept, jws: 'first' }]));
    const writes = Array.from({ length: 15 }, (_, i) => [
      writeReceiptRow(env.DB, receipt(i + 1, 'rows-batch')),
      writeUsage(env.DB, usage(i + 1, 'rows-batch')),
    ]).flat();
    writes.push(writeReceiptRow(env.DB, { ...kept, jws: 'second' }));
    const opened = writes.filter((w) => w !== undefined);
    expect(opened).toHaveLength(1);
    await Promise.all(opened);
    const counts = await env.DB.prepare(
      "SELECT (SELECT COUNT(*) FROM receipts WHERE tenant = 'rows-batch') AS receipts, (SELECT COUNT(*) FROM usage_records WHERE tenant = 'rows-batch') AS usage",
    ).first<{ receipts: number; usage: number }>();
    expect(counts).toEqual({ receipts: 16, usage: 15 });
    expect((await findReceipt(env.DB, kept.tenant, kept.id))?.jws).toBe('first');
  });
});
