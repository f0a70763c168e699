// `npm start`'s own server for the bench (scripts/dev.js, exactly as a newcomer runs it), with its state
// and .dev.vars in a temp folder: the .dev.vars carries the bench's catalog (the fake upstream) and a
// default rate limit far above the load, so it serves the same requests as the deploy bundle beside it.
// Ready once it prints its banner; the development key is read from it, as a newcomer would.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../lib/peer.js';
import { stopChild } from '../lib/processes.js';

/**
 * @param {string} root the repository
 * @param {Record<string, unknown>} catalog the bench's VALVE_CATALOG
 * @returns {Promise<{ url: string, key: string, pid: number, stop: () => Promise<void> }>}
 */
export async function startNpmStart(root, catalog) {
  const dir = mkdtempSync(join(tmpdir(), 'valve-bench-npm-start-'));
  const devVars = join(dir, '.dev.vars');
  writeFileSync(
    devVars,
    [
      `VALVE_CATALOG=${JSON.stringify(catalog)}`,
      'OPENAI_API_KEY=bench-key',
      'DEFAULT_RATE_LIMIT_PER_MINUTE=1000000',
      '',
    ].join('\n'),
  );
  const port = await freePort();
  const child = spawn(
    process.execPath,
    ['scripts/dev.js', `--port=${port}`, `--persist-to=${join(dir, 'state')}`, `--dev-vars=${devVars}`],
    { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  // Only the tail is kept: the Worker's own log lines keep coming while the bench runs.
  const keep = (/** @type {Buffer} */ chunk) => {
    output = (output + chunk).slice(-16_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const stop = () => stopChild(child, 'SIGINT').then(() => rmSync(dir, { recursive: true, force: true }));
  const began = Date.now();
  while (!/Try it:/.test(output)) {
    if (child.exitCode !== null || Date.now() - began > 120_000) {
      await stop();
      throw new Error(`npm start did not come up: ${output.slice(-1500)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const key = /Development API key \(tenant "dev"\):\s+(vk_[A-Za-z0-9_-]+)/.exec(output)?.[1] ?? '';
  return { url: `http://127.0.0.1:${port}`, key, pid: Number(child.pid), stop };
}
