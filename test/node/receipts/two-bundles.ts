import { generateKeyPairSync } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { type RunningValve, startValve } from '../helpers/start-valve';
import { runCli } from './run-cli';

// A running Valve with two receipts of one log, disclosed as `first-bundle.json` and
// `second-bundle.json` in `dir` with the pinned `root.json`: verify the first to hold its checkpoint,
// and the second then needs a consistency proof.

function pkcs8Ed25519(): string {
  const { privateKey } = generateKeyPairSync('ed25519');
  return privateKey.export({ type: 'pkcs8', format: 'der' }).toString('base64');
}

export const logKeys = () => ({ RECEIPT_SIGNING_KEY: pkcs8Ed25519(), LOG_SIGNING_KEY: pkcs8Ed25519() });

export const request = {
  task: 'compare',
  instructions: 'Compare the two quotes.',
  context: [{ label: 'A', trust: 'untrusted', privacy: 'internal', content: 'Ten dollars.' }],
  receiptSalt: 'aG9zdGlsZS1ob3N0aWxlLWhvc3RpbGUtaG9zdGlsZS1ob3N0aWxl',
};

export async function ask(valve: RunningValve, body: Record<string, unknown>): Promise<unknown> {
  const res = await fetch(`${valve.url}/v1/reason`, {
    method: 'POST',
    headers: { authorization: `Bearer ${valve.key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (res.status !== 200) throw new Error(`reason: ${res.status} ${await res.text()}`);
  return res.json();
}

/** Saves `value` as `dir/name` and returns the path. */
export function save(dir: string, name: string, value: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(value, null, 2));
  return path;
}

/** Discloses every field of `response` (answered to `body`) into `dir/out`. */
export async function discloseAll(dir: string, body: unknown, response: unknown, out: string): Promise<void> {
  const result = await runCli([
    'disclose',
    '--request',
    save(dir, `${out}.request.json`, body),
    '--response',
    save(dir, `${out}.response.json`, response),
    '--out',
    join(dir, out),
  ]);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
}

export async function startValveWithTwoBundles(dir: string, keys = logKeys()): Promise<RunningValve> {
  const valve = await startValve({ vars: keys });
  save(dir, 'root.json', await (await fetch(`${valve.url}/v1/trust-root`)).json());
  await discloseAll(dir, request, await ask(valve, request), 'first-bundle.json');
  const second = { ...request, task: 'second' };
  await discloseAll(dir, second, await ask(valve, second), 'second-bundle.json');
  return valve;
}
