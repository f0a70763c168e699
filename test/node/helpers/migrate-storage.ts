import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readD1Migrations } from '@cloudflare/vitest-pool-workers';
import type { TestProject } from 'vitest/node';
import { getPlatformProxy } from 'wrangler';

// Local storage with the D1 migrations applied, as `npm start` makes it. Migrating starts a workerd of
// its own (3 to 7 s on a loaded 2-core machine), so the Node project migrates one directory once
// (the globalSetup below) and each Valve a test starts copies it (under 20 ms).

declare module 'vitest' {
  export interface ProvidedContext {
    /** A storage directory the globalSetup migrated; startValve copies it. */
    migratedStorage: string;
  }
}

const root = join(import.meta.dirname, '../../..');

/** The part of the D1 binding the migrations need (the Node project has no Workers types). */
interface MigrationTarget {
  prepare(query: string): { run(): Promise<unknown> };
}

/**
 * wrangler.toml's top-level settings and its D1 section alone: the platform proxy that migrates the
 * database then has no Durable Object bindings whose classes it cannot find (workerd warns about each).
 */
function d1OnlyConfig(persistDir: string): string {
  const toml = readFileSync(join(root, 'wrangler.toml'), 'utf8');
  const topLevel = toml.slice(0, toml.search(/^\[/m));
  const d1 = /^\[\[d1_databases\]\][^[]*/m.exec(toml)?.[0];
  if (d1 === undefined) throw new Error('wrangler.toml has no [[d1_databases]] section');
  const path = join(persistDir, 'd1-only.toml');
  writeFileSync(path, `${topLevel}${d1}`);
  return path;
}

/** Applies every migration to the D1 database kept under `persistDir`. */
export async function migrateStorage(persistDir: string): Promise<void> {
  const proxy = await getPlatformProxy<{ DB: MigrationTarget }>({
    configPath: d1OnlyConfig(persistDir),
    persist: { path: join(persistDir, 'v3') },
  });
  try {
    for (const migration of await readD1Migrations(join(root, 'migrations'))) {
      for (const query of migration.queries) await proxy.env.DB.prepare(query).run();
    }
  } finally {
    await proxy.dispose();
  }
}

/** vitest globalSetup of the Node project: the one migrated directory, removed after the run. */
export default async function migratedStorage(project: TestProject): Promise<() => void> {
  const dir = mkdtempSync(join(tmpdir(), 'valve-migrated-'));
  await migrateStorage(dir);
  project.provide('migratedStorage', dir);
  return () => rmSync(dir, { recursive: true, force: true });
}
