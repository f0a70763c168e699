import { generateKeyPairSync } from 'node:crypto';
import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-pool-workers';
import { defineConfig } from 'vitest/config';
import { buildPages } from './scripts/build-pages.js';

// Fresh development secrets for each test run, exactly as `npm start` writes them into .dev.vars.
function pkcs8Ed25519(): string {
  const { privateKey } = generateKeyPairSync('ed25519');
  return privateKey.export({ type: 'pkcs8', format: 'der' }).toString('base64');
}

const migrations = await readD1Migrations('migrations');
// The Worker serves the browser verifier and the console from generated modules; build them before any
// test imports them.
await buildPages();

export default defineConfig({
  test: {
    projects: [
      {
        plugins: [
          cloudflareTest({
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
          }),
        ],
        // In CI the shared test vectors are present, so their tests must run, not skip (test/shared-data.ts).
        define: { __REQUIRE_SHARED_DATA__: JSON.stringify(process.env.CI === 'true') },
        test: {
          name: 'workers',
          include: ['test/**/*.test.ts'],
          exclude: ['test/node/**'],
          setupFiles: ['./test/apply-migrations.ts'],
        },
      },
      {
        test: {
          name: 'node',
          environment: 'node',
          include: ['test/node/**/*.test.ts'],
          globalSetup: ['./test/node/helpers/build-cli.ts', './test/node/helpers/migrate-storage.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
