import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import { unstable_startWorker } from 'wrangler';
import { migrateStorage } from './migrate-storage';

// Starts the real worker (wrangler's unstable_startWorker: workerd, local D1 and Durable Objects) on
// 127.0.0.1 with a given catalog, applies the D1 migrations to a fresh persist directory first, and
// creates an API key through the admin endpoint. Secrets come only from the bindings passed here, so
// a missing .dev.vars (CI) changes nothing. Start one per test file, not per test.

export interface StartValveOptions {
  /** The catalog served as VALVE_CATALOG; omitted means the built-in simulator catalog. */
  catalog?: unknown;
  /** Extra plain-text bindings, such as provider keys (`OPENAI_API_KEY`). */
  vars?: Record<string, string>;
  scopes?: string[];
  /** Local storage to run on and keep, migrated by the caller (applyMigrations), for a restart of one deployment; omitted, a fresh one removed on stop. */
  persistDir?: string;
}

export interface RunningValve {
  url: string;
  key: string;
  adminToken: string;
  stop: () => Promise<void>;
}

const root = join(import.meta.dirname, '../../..');

function pkcs8Ed25519(): string {
  const { privateKey } = generateKeyPairSync('ed25519');
  return privateKey.export({ type: 'pkcs8', format: 'der' }).toString('base64');
}

/** Migrates a fresh storage directory: a copy of the run's migrated one, or (outside the Node project) anew. */
export async function applyMigrations(persistDir: string): Promise<void> {
  const template = inject('migratedStorage');
  if (template === undefined) return migrateStorage(persistDir);
  cpSync(join(template, 'v3'), join(persistDir, 'v3'), { recursive: true });
}

export async function startValve(options: StartValveOptions = {}): Promise<RunningValve> {
  const persistDir = options.persistDir ?? mkdtempSync(join(tmpdir(), 'valve-test-'));
  if (options.persistDir === undefined) await applyMigrations(persistDir);
  const adminToken = randomBytes(16).toString('hex');
  const plain = (value: string) => ({ type: 'plain_text' as const, value });
  const vars: Record<string, string> = {
    ADMIN_TOKEN: adminToken,
    RECEIPT_SIGNING_KEY: pkcs8Ed25519(),
    LOG_SIGNING_KEY: pkcs8Ed25519(),
    REPLAY_KEY: randomBytes(32).toString('base64'),
    ...(options.catalog !== undefined && { VALVE_CATALOG: JSON.stringify(options.catalog) }),
    ...options.vars,
  };
  const worker = await unstable_startWorker({
    config: join(root, 'wrangler.toml'),
    dev: {
      server: { hostname: '127.0.0.1', port: 0 },
      inspector: false,
      persist: persistDir,
      logLevel: 'error',
    },
    bindings: Object.fromEntries(Object.entries(vars).map(([name, value]) => [name, plain(value)])),
  });
  const stop = async () => {
    await worker.dispose();
    if (options.persistDir === undefined) rmSync(persistDir, { recursive: true, force: true });
  };
  try {
    const url = String(await worker.url).replace(/\/$/, '');
    const res = await fetch(`${url}/v1/admin/keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        tenant: 'e2e',
        scopes: options.scopes ?? ['reason', 'receipts:read', 'usage:read'],
      }),
    });
    if (res.status !== 201) throw new Error(`creating an API key failed: ${res.status} ${await res.text()}`);
    const { key } = (await res.json()) as { key: string };
    return { url, key, adminToken, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
