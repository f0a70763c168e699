import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultCatalog } from '../../../src/policy/default-catalog';
import { simModel } from '../../helpers/catalog-fixtures';
import { type RunningValve, startValve } from '../helpers/start-valve';

// The official `openai` Python SDK against a local Valve, from the git-ignored venv that
// `npm run clients:setup` (and .ci/run) makes from test/clients/requirements.txt. Without the venv the
// file skips locally and fails in CI, so the clients can never stop running there unnoticed.

const root = join(import.meta.dirname, '../../..');
const python = join(root, '.cache', 'clients', 'venv', 'bin', 'python');
const present = existsSync(python);
if (!present && process.env.CI === 'true') {
  throw new Error('CI=true but .cache/clients/venv is missing: run `npm run clients:setup` (.ci/run does).');
}

let valve: RunningValve;
let results: { check: string; ok: boolean; detail: string }[] = [];

beforeAll(async () => {
  if (!present) return;
  valve = await startValve({
    catalog: {
      providers: defaultCatalog.providers,
      models: [
        ...defaultCatalog.models,
        // Fails the first three calls (one request's attempts), then answers: its circuit opens and half-opens.
        simModel('flaky', { simulate: { latencyMs: 1, failWith: 'server', failTimes: 3 } }),
        simModel('flaky-hold', { simulate: { latencyMs: 1, failWith: 'server' } }),
      ],
    },
    vars: { CIRCUIT_COOLDOWN_MS: '2000' },
  });
  const run = spawnSync(
    python,
    [join(root, 'test', 'clients', 'openai_sdk_checks.py'), `${valve.url}/openai/v1`, valve.key],
    {
      encoding: 'utf8',
      timeout: 90_000,
    },
  );
  if (run.status !== 0) throw new Error(`the SDK checks did not run:\n${run.stderr}`);
  results = run.stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line));
}, 150_000);

afterAll(async () => {
  await valve?.stop();
});

describe.skipIf(!present)('the openai Python SDK (3.60.0)', () => {
  it.each([
    'model_dump round trip',
    'to_dict round trip',
    'models.retrieve with a slash',
    'max_tokens truncates',
    'a circuit-open 503 is what the SDK sees without retries',
    'a circuit-open 503 is retried until the probe answers',
  ])('%s', (name) => {
    const result = results.find((r) => r.check === name);
    expect(result, `no result for ${name}`).toBeDefined();
    expect(result?.ok, result?.detail).toBe(true);
  });
});
