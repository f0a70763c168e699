import { generateKeyPairSync } from 'node:crypto';
import { join } from 'node:path';
import { build } from 'esbuild';
import { Miniflare } from 'miniflare';
import { descendantsNamed } from './processes.js';

// The log benches' common ground (bench/log-appends.js, log-shards.js, witness-round.js): a fresh log
// key, the log-bench Worker bundled, and a workerd process serving it.

const root = join(import.meta.dirname, '../..');

/**
 * @typedef {{ mf: Miniflare, url: string, pids: number[] }} Server
 */

export function pkcs8Ed25519() {
  const { privateKey } = generateKeyPairSync('ed25519');
  return privateKey.export({ type: 'pkcs8', format: 'der' }).toString('base64');
}

/** Bundles bench/log-bench/worker.js (which imports the ReceiptLog from src/) into `dir`. */
export async function bundle(/** @type {string} */ dir) {
  await build({
    entryPoints: [join(root, 'bench/log-bench/worker.js')],
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    conditions: ['workerd', 'worker', 'browser'],
    mainFields: ['module', 'main'],
    external: ['cloudflare:*', 'node:*'],
    outfile: join(dir, 'worker.js'),
    logLevel: 'error',
  });
  return join(dir, 'worker.js');
}

/**
 * Serves the log-bench bundle in a workerd process of its own, started by Miniflare, with `bindings`
 * beside the log's origin and key, and finds that process: the workerd under this one that was not
 * there before (`known`, which it joins).
 * @param {{ work: string, scriptPath: string, signingKey: string, known: Set<number> }} context
 * @param {string} name
 * @param {Record<string, string>} [bindings]
 * @returns {Promise<Server>}
 */
export async function serve(context, name, bindings = {}) {
  const mf = new Miniflare({
    name,
    modules: true,
    scriptPath: context.scriptPath,
    modulesRoot: join(context.work, 'bundle'),
    compatibilityDate: '2026-04-01',
    compatibilityFlags: ['nodejs_compat'],
    host: '127.0.0.1',
    port: 0,
    durableObjects: { RECEIPT_LOG: { className: 'ReceiptLog', useSQLite: true } },
    durableObjectsPersist: join(context.work, 'do', name),
    bindings: { LOG_ORIGIN: 'bench.valve.local/log/0', LOG_SIGNING_KEY: context.signingKey, ...bindings },
  });
  let url;
  try {
    url = String(await mf.ready).replace(/\/$/, '');
  } catch (error) {
    await mf.dispose();
    throw error;
  }
  const pids = descendantsNamed(process.pid, 'workerd').filter((pid) => !context.known.has(pid));
  for (const pid of pids) context.known.add(pid);
  return { mf, url, pids };
}
