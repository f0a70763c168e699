import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// What an operator sees when `wrangler dev` starts with a broken VALVE_CATALOG: the path and the
// reason of every bad field, as wrangler prints the Worker's startup error.

const root = join(import.meta.dirname, '../../..');

function wranglerDev(catalog: unknown): Promise<string> {
  const persist = mkdtempSync(join(tmpdir(), 'valve-catalog-'));
  const args = [
    'dev',
    '--ip',
    '127.0.0.1',
    '--port',
    '0',
    '--persist-to',
    persist,
    '--var',
    `VALVE_CATALOG:${JSON.stringify(catalog)}`,
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(join(root, 'node_modules', '.bin', 'wrangler'), args, {
      cwd: root,
      env: { ...process.env, CI: '1', WRANGLER_SEND_METRICS: 'false' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const collect = (chunk: Buffer) => {
      output += chunk.toString();
      // The runtime refused to start: everything the operator is shown has been printed.
      if (output.includes('failed to start')) child.kill('SIGTERM');
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.on('error', reject);
    child.on('close', () => {
      rmSync(persist, { recursive: true, force: true });
      resolve(output);
    });
  });
}

describe('a broken VALVE_CATALOG under wrangler dev', () => {
  it('prints the path and reason of every bad field, never "[object Object]"', async () => {
    const output = await wranglerDev({
      providers: [{ id: 'sim', kind: 'sim' }],
      models: [{ id: 5 }],
      extra: true,
    });
    expect(output).toContain('VALVE_CATALOG does not match the catalog schema');
    expect(output).not.toContain('[object Object]');
    expect(output).toMatch(/- extra: unknown field/);
    expect(output).toMatch(/- models\.0\.provider: Invalid input: expected string/);
    expect(output).toMatch(/- models\.0\.priceUsdPerMTok: Invalid input: expected object/);
  });
});
