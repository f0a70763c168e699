#!/usr/bin/env node
// What local D1 (Miniflare's, in workerd) charges a batch and a row, measured as the bench measures
// Valve: workerd's CPU time over a load run, divided by the batches. One tiny Worker writes one D1
// batch per request, of the rows Valve writes behind its answers:
//   none                 no batch (the floor: HTTP and the isolate, on the Worker's own socket);
//   usage-single:N       N usage rows, one INSERT each;
//   usage-multi:N        N usage rows, 7 to an INSERT (D1's 100 bound parameters);
//   receipt-random:N     N receipt rows keyed (tenant, random UUID), 20 to an INSERT;
//   receipt-ordered:N    the same rows keyed by time-ordered ids;
//   receipt-nojws:N      random ids without the ~900-byte JWS column.
// Usage: node bench/tools/d1-costs.js [seconds per mode, default 4] [mode …]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { Miniflare } from 'miniflare';
import { cpuSeconds, descendantsNamed } from '../lib/processes.js';

const seconds = Number(process.argv[2] ?? 4);
const modes = process.argv.slice(3);
if (modes.length === 0) {
  modes.push(
    'none',
    'usage-single:1',
    'usage-single:20',
    'usage-multi:20',
    'receipt-random:1',
    'receipt-random:20',
    'receipt-ordered:20',
    'receipt-nojws:20',
  );
}
const dir = mkdtempSync(join(tmpdir(), 'valve-d1-costs-'));
const script = `
const jws = 'x'.repeat(900);
let seq = 0;
const receiptSql = (n) => 'INSERT INTO receipts (tenant, id, state, claimed_at, jws) VALUES ' +
  Array.from({ length: n }, () => "(?, ?, 'issued', ?, ?)").join(', ') + ' ON CONFLICT (tenant, id) DO NOTHING';
const usageSql = (n) => 'INSERT INTO usage_records (tenant, key_id, route, model, input_tokens, output_tokens, latency_ms, outcome, fallbacks, stream, cost_usd, created_at, day) VALUES ' +
  Array.from({ length: n }, () => '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ');
const usage = () => ['bench', 'k', '/v1/reason', 'sim/x', 42, 14, 3, 'ok', 0, 0, 0.001, Date.now(), '2026-12-01'];
const receipt = (ordered, withJws) => [
  'bench',
  ordered ? String(Date.now() * 1000 + (seq++ % 1000)).padStart(20, '0') : crypto.randomUUID(),
  Date.now(),
  withJws ? jws : null,
];
export default {
  async fetch(request, env) {
    const params = new URL(request.url).searchParams;
    const mode = params.get('mode');
    const n = Number(params.get('n') ?? 20);
    if (mode === 'none') return new Response('ok');
    const db = env.DB;
    const statements = [];
    const chunked = (perStatement, sql, row) => {
      for (let i = 0; i < n; i += perStatement) {
        const k = Math.min(perStatement, n - i);
        statements.push(db.prepare(sql(k)).bind(...Array.from({ length: k }, row).flat()));
      }
    };
    if (mode === 'usage-single') chunked(1, usageSql, usage);
    if (mode === 'usage-multi') chunked(7, usageSql, usage);
    if (mode === 'receipt-random') chunked(20, receiptSql, () => receipt(false, true));
    if (mode === 'receipt-ordered') chunked(20, receiptSql, () => receipt(true, true));
    if (mode === 'receipt-nojws') chunked(20, receiptSql, () => receipt(false, false));
    await db.batch(statements);
    return new Response('ok');
  },
};`;
const mf = new Miniflare({
  modules: true,
  script,
  compatibilityDate: '2026-04-01',
  d1Databases: { DB: 'db' },
  d1Persist: join(dir, 'd1'),
  host: '127.0.0.1',
  port: 0,
  unsafeDirectSockets: [{ host: '127.0.0.1', port: 0 }],
});
try {
  await mf.ready;
  // The Worker's own socket, as the bench serves Valve: no entry worker in front.
  const url = await mf.unsafeGetDirectURL();
  const db = await mf.getD1Database('DB');
  // The two tables as migrations/ shape them, with only the columns these rows fill.
  await db
    .prepare(
      'CREATE TABLE usage_records (id INTEGER PRIMARY KEY AUTOINCREMENT, tenant TEXT NOT NULL, key_id TEXT, route TEXT NOT NULL, model TEXT NOT NULL, input_tokens INTEGER NOT NULL, output_tokens INTEGER NOT NULL, latency_ms INTEGER NOT NULL, outcome TEXT NOT NULL, fallbacks INTEGER NOT NULL, stream INTEGER NOT NULL, cost_usd REAL NOT NULL, created_at INTEGER NOT NULL, day TEXT NOT NULL)',
    )
    .run();
  await db.prepare('CREATE INDEX usage_records_tenant_day ON usage_records (tenant, day)').run();
  await db
    .prepare(
      'CREATE TABLE receipts (tenant TEXT NOT NULL, id TEXT NOT NULL, state TEXT NOT NULL, claimed_at INTEGER NOT NULL, jws TEXT, PRIMARY KEY (tenant, id))',
    )
    .run();
  // The workerd that Miniflare started for this process.
  const [pid] = descendantsNamed(process.pid, 'workerd');
  if (pid === undefined) throw new Error('no workerd under this process');
  const cpuMs = () => (cpuSeconds(pid) ?? Number.NaN) * 1000;
  console.log('| mode | workerd CPU per batch |');
  console.log('| --- | ---: |');
  for (const entry of modes) {
    const [mode, n = '20'] = entry.split(':');
    const target = `${url}?mode=${mode}&n=${n}`;
    await autocannon({ url: target, connections: 4, duration: 1 });
    const before = cpuMs();
    const result = await autocannon({ url: target, connections: 4, duration: seconds });
    console.log(`| ${entry} | ${(((cpuMs() - before) / result.requests.total) * 1000).toFixed(0)} µs |`);
  }
} finally {
  await mf.dispose();
  rmSync(dir, { recursive: true, force: true });
}
