import { generateKeyPairSync } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-pool-workers';
import { defineConfig } from 'vitest/config';
import { buildPages } from './scripts/build-pages.js';
import { workersTestGroups } from './test/runtime-groups.ts';
import { runtimeShares, writeRuntimeShares } from './test/runtime-shares.ts';

// Fresh development secrets for each test run, exactly as `npm start` writes them into .dev.vars.
function pkcs8Ed25519(): string {
  const { privateKey } = generateKeyPairSync('ed25519');
  return privateKey.export({ type: 'pkcs8', format: 'der' }).toString('base64');
}

const migrations = await readD1Migrations('migrations');
// The Worker serves the browser verifier and the console from generated modules; build them before any
// test imports them.
await buildPages();

// Every Workers project runs the real wrangler.toml with fresh development secrets.
function workersPool() {
  return cloudflareTest({
    wrangler: { configPath: './wrangler.toml' },
    miniflare: {
      bindings: {
        TEST_MIGRATIONS: migrations,
        ADMIN_TOKEN: 'test-admin-token',
        RECEIPT_SIGNING_KEY: pkcs8Ed25519(),
        LOG_SIGNING_KEY: pkcs8Ed25519(),
        // wrangler also reads a developer's .dev.vars: blank the provider keys the default catalog
        // names, so a real key there can never route a test to the network.
        OPENAI_API_KEY: '',
        ANTHROPIC_API_KEY: '',
        GEMINI_API_KEY: '',
      },
    },
  });
}

// In CI the shared test vectors are present, so their tests must run, not skip (test/shared-data.ts).
// A new object for each project: vite takes a project's `define` over, and a second project given the
// same object read the flag as false.
const sharedDataDefine = () => ({ __REQUIRE_SHARED_DATA__: JSON.stringify(process.env.CI === 'true') });
const groups = workersTestGroups(import.meta.dirname);
// A whole run gives the files that reach the runtime one runtime per share (test/runtime-shares.ts); a
// run that names test files (`npx vitest run test/log/log-claims.test.ts`) gives each its own, as before,
// so a file named alone runs alone and by its own name.
const namesFiles = process.argv
  .slice(2)
  .some((arg) => !arg.startsWith('-') && /(^|\/)test\/|\.test\.ts$/.test(arg));
const ownRuntimes = namesFiles
  ? groups.own
  : writeRuntimeShares(import.meta.dirname, runtimeShares(groups.own));

export default defineConfig({
  test: {
    // One test file more than there are cores: a Workers file spends part of its start waiting on workerd
    // and the module runner, a Node file on the processes it spawns, so a file per core leaves cores idle
    // (bench/results/2026-12-07-suite.md).
    maxWorkers: availableParallelism() + 1,
    // A passing test prints nothing: the Worker's structured logs of the failures tests provoke on purpose
    // (model.timeout, receipt.completion_failed, ...) are shown with the test only when it fails.
    // `npx vitest run --silent=false` shows them all.
    silent: 'passed-only',
    projects: [
      {
        plugins: [workersPool()],
        define: sharedDataDefine(),
        test: {
          name: 'workers',
          include: ownRuntimes,
          setupFiles: ['./test/apply-migrations.ts'],
          // As the Node project's: on a loaded shared machine vitest's 5 s default cut off tests that take
          // 1 to 2 s when quiet (tlog-tiles, tenant-budget, prompt invariants). A test that hangs still fails.
          testTimeout: 60_000,
        },
      },
      {
        plugins: [workersPool()],
        define: sharedDataDefine(),
        test: {
          // Files that never reach the runtime's bindings (test/runtime-groups.ts) run one after another in
          // one workerd instead of starting one each; they still run in the Workers runtime.
          name: 'workers-pure',
          include: groups.shared,
          isolate: false,
          testTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'node',
          environment: 'node',
          // A file starts its own Valve, upstreams and clients and stops them in afterAll, so files can share
          // a Node process: that saves loading wrangler and the clients again for every file.
          isolate: false,
          include: ['test/node/**/*.test.ts'],
          globalSetup: ['./test/node/helpers/build-cli.ts', './test/node/helpers/migrate-storage.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
