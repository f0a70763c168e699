#!/usr/bin/env node
// The p99 at 16 connections of servers that do nothing, read by the bench's two load generators:
// wrk (`wrk -t1 -c16`, the throughput rounds) and autocannon (a Node client; the bench's second p99
// row). One Worker that answers "ok" at once, in workerd on a socket of its own as the bench serves
// Valve, and one Node `http` server that does the same, each loaded by both clients, alternately, for
// the same time. If a client's p99 of the empty Worker is far above the other's at the same rate,
// that part of any Worker's tail under that client is the runtime's and the client's, not the Worker's.
// (wrk runs as a child process without blocking this one, which serves the Node server.)
// Usage: node bench/tools/tail-clients.js [seconds per run, default 5] [rounds, default 2]
import { createServer } from 'node:http';
import { Miniflare } from 'miniflare';
import { runLoad } from '../lib/load.js';
import { ensureWrk, startWrk } from '../lib/wrk.js';

const seconds = Number(process.argv[2] ?? 5);
const rounds = Number(process.argv[3] ?? 2);
if (!ensureWrk(console.error)) {
  console.error('tail-clients.js needs wrk (Debian package `wrk`)');
  process.exit(2);
}
const mf = new Miniflare({
  modules: true,
  script: `export default { fetch() { return new Response('ok'); } };`,
  compatibilityDate: '2026-04-01',
  unsafeDirectSockets: [{ host: '127.0.0.1', port: 0 }],
});
const node = createServer((_request, response) => response.end('ok'));
try {
  await mf.ready;
  const workerUrl = String(await mf.unsafeGetDirectURL());
  await new Promise((resolve) => node.listen(0, '127.0.0.1', () => resolve(undefined)));
  const address = node.address();
  const nodeUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/`;
  const servers = { 'empty Worker (workerd)': workerUrl, 'empty Node http server': nodeUrl };
  /** @type {Record<string, Array<{ rps: number, p50: number, p99: number }>>} */
  const runs = {};
  for (let round = 0; round < rounds; round++) {
    for (const [server, url] of Object.entries(servers)) {
      const target = { url, headers: { 'content-type': 'application/json' }, body: '{}' };
      for (const client of round % 2 === 0 ? ['wrk', 'autocannon'] : ['autocannon', 'wrk']) {
        const shape = { connections: 16, durationS: seconds };
        const result = client === 'wrk' ? await startWrk(target, shape) : await runLoad(target, shape);
        const key = `${server} | ${client}`;
        runs[key] = [
          ...(runs[key] ?? []),
          { rps: result.rps, p50: result.latencyMs.p50, p99: result.latencyMs.p99 },
        ];
      }
    }
  }
  console.log('| server | client | req/s | p50 | p99 (each round) |');
  console.log('| --- | --- | ---: | ---: | ---: |');
  for (const [key, values] of Object.entries(runs)) {
    const mean = (/** @type {'rps' | 'p50'} */ k) => values.reduce((s, v) => s + v[k], 0) / values.length;
    console.log(
      `| ${key} | ${mean('rps').toFixed(0)} | ${mean('p50').toFixed(2)} ms | ${values.map((v) => `${v.p99} ms`).join(', ')} |`,
    );
  }
} finally {
  node.close();
  await mf.dispose();
}
