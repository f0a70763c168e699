import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';

// The Python clients the door is tested with live in a git-ignored venv that `npm run clients:setup`
// (and .ci/run) makes from test/clients/requirements.txt. Without it a client's test file skips
// locally and fails in CI, so the clients can never stop running there unnoticed.

const root = join(import.meta.dirname, '../../..');

/** test/clients: the check scripts, the pytest suite and the requirements. */
export const clientsDir = join(root, 'test', 'clients');
export const venvPython = join(root, '.cache', 'clients', 'venv', 'bin', 'python');
export const venvPresent = existsSync(venvPython);

if (!venvPresent && process.env.CI === 'true') {
  throw new Error('CI=true but .cache/clients/venv is missing: run `npm run clients:setup` (.ci/run does).');
}

/** What to do when a client is missing from a venv made before it joined the requirements. */
export const setupHint = 'if a module is missing, run `npm run clients:setup` again';

/** One line a check script prints. */
export interface CheckResult {
  check: string;
  ok: boolean;
  detail: string;
}

/** The JSON lines a run printed, one object each; other output (warnings, logs) is left out. */
export function jsonLines<T>(stdout: string): T[] {
  return stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as T);
}

/** Runs a check script of test/clients with the venv's Python; its exit status must be 0. */
export function runCheckScript(script: string, args: string[], timeoutMs = 90_000): CheckResult[] {
  const run = spawnSync(venvPython, [join(clientsDir, script), ...args], {
    encoding: 'utf8',
    timeout: timeoutMs,
  });
  if (run.status !== 0) {
    const why = run.error?.message ?? (run.signal ? `killed by ${run.signal}` : `exit ${run.status}`);
    throw new Error(`${script} did not run, ${why} (${setupHint}):\n${run.stderr}\n${run.stdout}`);
  }
  return jsonLines<CheckResult>(run.stdout);
}

/**
 * runCheckScript without blocking this process: for a run whose Valve calls a fake upstream served
 * here, which a synchronous run would keep from answering.
 */
export function runCheckScriptAsync(
  script: string,
  args: string[],
  timeoutMs = 90_000,
): Promise<CheckResult[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(venvPython, [join(clientsDir, script), ...args], { timeout: timeoutMs });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += String(chunk);
    });
    child.stderr.on('data', (chunk) => {
      stderr += String(chunk);
    });
    child.on('error', reject);
    child.on('close', (status, signal) => {
      if (status === 0) resolve(jsonLines<CheckResult>(stdout));
      else
        reject(
          new Error(
            `${script} did not run, ${signal ? `killed by ${signal}` : `exit ${status}`} (${setupHint}):\n${stderr}\n${stdout}`,
          ),
        );
    });
  });
}

/** That the run reported the check `name`, and that it passed (its detail says why not). */
export function expectPassed(results: CheckResult[], name: string): void {
  const result = results.find((r) => r.check === name);
  expect(result, `no result for ${name}`).toBeDefined();
  expect(result?.ok, result?.detail).toBe(true);
}
