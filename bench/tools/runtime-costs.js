#!/usr/bin/env node
// What the runtime itself charges a request, in local workerd (Miniflare), measured the way the bench
// measures Valve: workerd's CPU time over a load run, divided by its requests. One tiny Worker, one
// request shape per mode, so the differences are the price of one thing each. Requests come in on a
// socket of the Worker's own, as the bench serves Valve (bench/servers/valve.js), except in `entry`:
//   entry      answer at once, through Miniflare's entry worker (what a Miniflare port adds);
//   none       answer at once (the floor: the HTTP server, the isolate);
//   rpc        one Durable Object RPC that does nothing;
//   read       one RPC that reads SQLite;
//   write      one RPC that inserts a row (one SQLite commit, held by the output gate until durable);
//   write10    one RPC that inserts ten rows in one transaction (still one commit);
//   shared     await a promise another request made and resolves (a cross-request resolution).
// Usage: node bench/tools/runtime-costs.js [seconds per mode, default 5] [rounds, default 2]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { Miniflare } from 'miniflare';
import { cpuSeconds, descendantsNamed } from '../lib/processes.js';

const seconds = Number(process.argv[2] ?? 5);
const rounds = Number(process.argv[3] ?? 2);
const dir = mkdtempSync(join(tmpdir(), 'valve-runtime-costs-'));
const script = `import { DurableObject } from 'cloudflare:workers';
export class Probe extends DurableObject {
  constructor(ctx, env) { super(ctx, env); ctx.storage.sql.exec('CREATE TABLE IF NOT EXISTS t (v INTEGER)'); }
  ping(x) { return x + 1; }
  read() { return this.ctx.storage.sql.exec('SELECT 1 AS one').toArray()[0].one; }
  write(x) { this.ctx.storage.sql.exec('INSERT INTO t VALUES (?)', x); return x; }
  write10(x) {
    this.ctx.storage.transactionSync(() => { for (let i = 0; i < 10; i++) this.ctx.storage.sql.exec('INSERT INTO t VALUES (?)', x); });
    return x;
  }
}
let shared;
function sharedPromise() {
  if (!shared) {
    let resolve;
    shared = new Promise((r) => { resolve = r; });
    setTimeout(() => { resolve(); shared = undefined; }, 1);
  }
  return shared;
}
export default {
  async fetch(request, env) {
    const mode = new URL(request.url).searchParams.get('mode');
    const probe = () => env.PROBE.getByName('probe');
    if (mode === 'rpc') await probe().ping(1);
    else if (mode === 'read') await probe().read();
    else if (mode === 'write') await probe().write(1);
    else if (mode === 'write10') await probe().write10(1);
    else if (mode === 'shared') await sharedPromise();
    return new Response('ok');
  },
};
`;
const mf = new Miniflare({
  modules: true,
  script,
  compatibilityDate: '2026-04-01',
  durableObjects: { PROBE: { className: 'Probe', useSQLite: true } },
  durableObjectsPersist: join(dir, 'do'),
  host: '127.0.0.1',
  port: 0,
  unsafeDirectSockets: [{ host: '127.0.0.1', port: 0 }],
});
try {
  const entryUrl = await mf.ready;
  const url = await mf.unsafeGetDirectURL();
  // The workerd that Miniflare started for this process.
  const [pid] = descendantsNamed(process.pid, 'workerd');
  if (pid === undefined) throw new Error('no workerd under this process');
  const cpuMs = () => (cpuSeconds(pid) ?? Number.NaN) * 1000;
  /** @type {Record<string, number[]>} */
  const perMode = {};
  for (let round = 0; round < rounds; round++) {
    for (const mode of ['entry', 'none', 'rpc', 'read', 'write', 'write10', 'shared']) {
      const target = mode === 'entry' ? `${entryUrl}?mode=none` : `${url}?mode=${mode}`;
      await autocannon({ url: target, connections: 16, duration: 1 });
      const before = cpuMs();
      const result = await autocannon({ url: target, connections: 16, duration: seconds });
      const us = ((cpuMs() - before) / result.requests.total) * 1000;
      perMode[mode] = [...(perMode[mode] ?? []), us];
    }
  }
  const floor = Math.min(...(perMode.none ?? [0]));
  console.log('| mode | workerd CPU per request (best of rounds) | over the floor |');
  console.log('| --- | ---: | ---: |');
  for (const [mode, values] of Object.entries(perMode)) {
    const best = Math.min(...values);
    console.log(
      `| ${mode} | ${best.toFixed(0)} µs | ${mode === 'none' ? '—' : `${(best - floor).toFixed(0)} µs`} |`,
    );
  }
} finally {
  await mf.dispose();
  rmSync(dir, { recursive: true, force: true });
}
