import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningValve, startValve } from '../helpers/start-valve';

// Schemathesis draws requests from the served /openapi.json (its examples, the boundaries of every
// schema, then random cases, then chains of calls) and checks each answer: no 5xx, a status the
// operation declares, a body that fits that status's schema. Settings (seed, examples per operation,
// checks) are in test/fuzz/schemathesis.toml. It runs from the git-ignored venv `npm run fuzz:setup`
// (and .ci/run) makes from test/fuzz/requirements.txt: without it the test skips locally and fails in CI.

const root = join(import.meta.dirname, '../../..');
const schemathesis = join(root, '.cache', 'fuzz', 'venv', 'bin', 'schemathesis');
const present = existsSync(schemathesis);
if (!present && process.env.CI === 'true') {
  throw new Error('CI=true but .cache/fuzz/venv is missing: run `npm run fuzz:setup` (.ci/run does).');
}

interface Run {
  code: number | null;
  output: string;
}

/** Schemathesis against the running Valve, its admin token and key given to the document's two schemes. */
function fuzz(valve: RunningValve): Promise<Run> {
  const args = [
    '--no-color',
    '--config-file',
    join(root, 'test', 'fuzz', 'schemathesis.toml'),
    'run',
    `${valve.url}/openapi.json`,
  ];
  const env = { ...process.env, VALVE_API_KEY: valve.key, VALVE_ADMIN_TOKEN: valve.adminToken };
  return new Promise((resolve, reject) => {
    const child = spawn(schemathesis, args, { cwd: root, env, timeout: 400_000 });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

let valve: RunningValve | undefined;

beforeAll(async () => {
  if (!present) return;
  // Every request of a run comes from one key: without a high limit, the rate limiter's 429s would
  // stand in for the answers under test.
  valve = await startValve({ vars: { DEFAULT_RATE_LIMIT_PER_MINUTE: '1000000' } });
}, 60_000);

afterAll(async () => {
  await valve?.stop();
});

describe('the served OpenAPI document, fuzzed by Schemathesis', () => {
  it.skipIf(!present)(
    'draws over a thousand cases from it, and the server answers every one as it says',
    async () => {
      const run = await fuzz(valve as RunningValve);
      const summary = /(\d+) generated, (.+)$/m.exec(run.output);
      // Schemathesis reports failures and errors in sections after the phases; show those, or the whole run.
      const report = /^=+ (FAILURES|ERRORS) =+$/m.exec(run.output);
      expect(run.code, report ? run.output.slice(report.index) : run.output).toBe(0);
      expect(summary?.[2], run.output).toBe(`${summary?.[1]} passed`);
      expect(Number(summary?.[1])).toBeGreaterThan(1000);
      // Every operation of the document was selected and tested.
      const selected = /Selected: (\d+)\/(\d+)/.exec(run.output);
      const tested = /Tested: (\d+)/.exec(run.output);
      expect([selected?.[1], tested?.[1]]).toEqual([selected?.[2], selected?.[2]]);
      expect(Number(selected?.[2])).toBeGreaterThanOrEqual(21);
    },
    420_000,
  );
});
