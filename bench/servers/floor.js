#!/usr/bin/env node
// The floor Worker (bench/servers/floor-worker.js) for the bench, served as bench/servers/valve.js
// serves Valve's deploy bundle: workerd through Miniflare, wrangler.toml's compatibility date and
// flags, requests on a socket of the Worker's own and its fetch() calls straight out of it
// (scripts/as-deployed.js). Run as its own process: this Node process only supervises; workerd, its
// child, serves every request.
//
// Usage: node bench/servers/floor.js --upstream=<url>
// Prints one line `{"url", "supervisorPid"}` once the Worker answers.
import { join } from 'node:path';
import { Miniflare } from 'miniflare';
import { unstable_getMiniflareWorkerOptions } from 'wrangler';
import { directOutbound, ownSocket } from '../../scripts/as-deployed.js';

const root = join(import.meta.dirname, '../..');
const upstream = process.argv.find((a) => a.startsWith('--upstream='))?.slice('--upstream='.length);
if (!upstream) {
  console.error('usage: floor.js --upstream=<url>');
  process.exit(2);
}

const { workerOptions } = unstable_getMiniflareWorkerOptions(join(root, 'wrangler.toml'));
const mf = new Miniflare({
  name: 'floor',
  modules: true,
  scriptPath: join(import.meta.dirname, 'floor-worker.js'),
  compatibilityDate: workerOptions.compatibilityDate,
  compatibilityFlags: workerOptions.compatibilityFlags,
  host: '127.0.0.1',
  port: 0,
  ...ownSocket(0),
  ...directOutbound,
  bindings: { UPSTREAM_URL: upstream, UPSTREAM_KEY: 'bench-key' },
});

const stop = () => mf.dispose().catch(() => {});
process.on('SIGTERM', () => stop().then(() => process.exit(0)));
process.on('SIGINT', () => stop().then(() => process.exit(0)));
process.on('disconnect', () => stop().then(() => process.exit(0)));

try {
  await mf.ready;
  const url = String(await mf.unsafeGetDirectURL()).replace(/\/$/, '');
  process.stdout.write(`${JSON.stringify({ url, supervisorPid: process.pid })}\n`);
} catch (error) {
  console.error(`floor: ${error instanceof Error ? error.stack : String(error)}`);
  await stop();
  process.exit(1);
}
