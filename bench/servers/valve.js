#!/usr/bin/env node
// Valve for the bench: the production bundle (`wrangler deploy --dry-run`, minified as deployed) served
// by workerd through Miniflare, the library under `wrangler dev`, with the bindings wrangler.toml
// declares (local D1, SQLite Durable Objects). Not `wrangler dev` itself: that puts a proxy worker, a
// second workerd process, in front of every request, which production does not have. Run as its own
// process: this Node process only supervises; workerd, its child, serves every request.
//
// Usage: node bench/servers/valve.js --bundle=<dir with index.js> --upstream=<url> [--inspector-port=N]
//   [--entry] [--strip] (Miniflare's entry worker before the Worker, its strip-cf-connecting-ip worker after)
// Prints one line `{"url", "key", "cappedKey", "adminToken", "supervisorPid"}` once the worker answers
// and the API keys exist: `key` for tenant `bench` (no cap), `cappedKey` for `bench-capped` (a monthly
// cap), `adminToken` for the admin API (bench/console-load.js seeds through it).
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Miniflare } from 'miniflare';
import { unstable_getMiniflareWorkerOptions, unstable_splitSqlQuery } from 'wrangler';
import { directOutbound, ownSocket } from '../../scripts/as-deployed.js';
import { benchCatalog } from '../lib/catalog.js';

const root = join(import.meta.dirname, '../..');

/** @param {string} name */
function arg(name) {
  const prefix = `--${name}=`;
  return process.argv.find((a) => a.startsWith(prefix))?.slice(prefix.length);
}

const bundle = arg('bundle');
const upstream = arg('upstream');
const inspectorPort = arg('inspector-port');
if (!bundle || !upstream) {
  console.error('usage: valve.js --bundle=<dir> --upstream=<url> [--inspector-port=N] [--entry] [--strip]');
  process.exit(2);
}

function pkcs8Ed25519() {
  const { privateKey } = generateKeyPairSync('ed25519');
  return privateKey.export({ type: 'pkcs8', format: 'der' }).toString('base64');
}

const persist = mkdtempSync(join(tmpdir(), 'valve-bench-state-'));
const adminToken = randomBytes(16).toString('hex');
const { workerOptions } = unstable_getMiniflareWorkerOptions(join(root, 'wrangler.toml'));

const mf = new Miniflare({
  ...workerOptions,
  name: 'valve',
  modules: true,
  scriptPath: join(bundle, 'index.js'),
  modulesRoot: bundle,
  host: '127.0.0.1',
  port: 0,
  // Served as deployed, as `npm start` serves it (scripts/as-deployed.js): requests on a socket of the
  // Worker's own (--entry keeps Miniflare's entry worker in front instead), provider calls straight
  // out of the Worker (--strip keeps Miniflare's strip-cf-connecting-ip worker after it).
  ...(!process.argv.includes('--entry') && ownSocket(0)),
  ...(!process.argv.includes('--strip') && directOutbound),
  ...(inspectorPort && { inspectorPort: Number(inspectorPort) }),
  d1Persist: join(persist, 'd1'),
  durableObjectsPersist: join(persist, 'do'),
  bindings: {
    ...workerOptions.bindings,
    ADMIN_TOKEN: adminToken,
    RECEIPT_SIGNING_KEY: pkcs8Ed25519(),
    LOG_SIGNING_KEY: pkcs8Ed25519(),
    REPLAY_KEY: randomBytes(32).toString('base64'),
    OPENAI_API_KEY: 'bench-key',
    VALVE_CATALOG: JSON.stringify(benchCatalog(upstream)),
  },
});

async function stop() {
  await mf.dispose().catch(() => {});
  rmSync(persist, { recursive: true, force: true });
}
process.on('SIGTERM', () => stop().then(() => process.exit(0)));
process.on('SIGINT', () => stop().then(() => process.exit(0)));
process.on('disconnect', () => stop().then(() => process.exit(0)));

try {
  await mf.ready;
  const url = String(
    process.argv.includes('--entry') ? await mf.ready : await mf.unsafeGetDirectURL(),
  ).replace(/\/$/, '');
  const db = await mf.getD1Database('DB');
  const migrations = readdirSync(join(root, 'migrations'))
    .filter((file) => file.endsWith('.sql'))
    .sort();
  for (const file of migrations) {
    for (const query of unstable_splitSqlQuery(readFileSync(join(root, 'migrations', file), 'utf8'))) {
      await db.prepare(query).run();
    }
  }
  const admin = { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' };
  /** @param {string} tenant */
  const createKey = async (tenant) => {
    const res = await fetch(`${url}/v1/admin/keys`, {
      method: 'POST',
      headers: admin,
      // The bench offers far more than the default 600 requests a minute; the limiter still runs.
      body: JSON.stringify({ tenant, scopes: ['reason', 'receipts:read'], rateLimitPerMinute: 1_000_000 }),
    });
    if (res.status !== 201) throw new Error(`creating an API key failed: ${res.status} ${await res.text()}`);
    return /** @type {{ key: string }} */ (await res.json()).key;
  };
  const key = await createKey('bench');
  // A tenant with a monthly cap far above what the bench spends: every request reserves and settles.
  const cappedKey = await createKey('bench-capped');
  const cap = await fetch(`${url}/v1/admin/tenants/bench-capped/budget`, {
    method: 'PUT',
    headers: admin,
    body: JSON.stringify({ monthlyCapUsd: 1_000_000 }),
  });
  if (cap.status !== 200) throw new Error(`setting the budget failed: ${cap.status} ${await cap.text()}`);
  process.stdout.write(
    `${JSON.stringify({ url, key, cappedKey, adminToken, supervisorPid: process.pid })}\n`,
  );
} catch (error) {
  console.error(`valve: ${error instanceof Error ? error.stack : String(error)}`);
  await stop();
  process.exit(1);
}
