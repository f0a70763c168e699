import { generateKeyPairSync } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningValve, startValve } from '../helpers/start-valve';
import { runCli } from './run-cli';

// The CLI that remembers: held checkpoints in the XDG state directory whatever folder it runs in,
// a missing consistency proof fetched from the log with --fetch (a local Valve, never the network),
// one exit code per verdict, items disclosed one by one, and the tenant checked when named.

function pkcs8Ed25519(): string {
  const { privateKey } = generateKeyPairSync('ed25519');
  return privateKey.export({ type: 'pkcs8', format: 'der' }).toString('base64');
}

const salt = 'bWVtb3J5LW1lbW9yeS1tZW1vcnktbWVtb3J5LW1lbW9yeS1tZW1v';
const item = (label: string, content: string) => ({
  label,
  trust: 'untrusted',
  privacy: 'internal',
  content,
});
const request = {
  task: 'compare',
  instructions: 'Compare the three quotes.',
  context: [item('A', 'Ten dollars.'), item('B', 'Twelve dollars.'), item('C', 'Nine dollars.')],
  receiptSalt: salt,
};

let valve: RunningValve;
let dir: string;
let broken: Server;
let brokenUrl: string;
let other: Server;
let otherUrl: string;
const file = (name: string) => join(dir, name);
const save = (name: string, value: unknown) => writeFileSync(file(name), JSON.stringify(value, null, 2));

async function ask(body: Record<string, unknown>): Promise<unknown> {
  const res = await fetch(`${valve.url}/v1/reason`, {
    method: 'POST',
    headers: { authorization: `Bearer ${valve.key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (res.status !== 200) throw new Error(`reason: ${res.status} ${await res.text()}`);
  return res.json();
}

async function disclose(response: string, out: string, ...extra: string[]) {
  const result = await runCli([
    'disclose',
    '--request',
    file('request.json'),
    '--response',
    file(response),
    '--out',
    file(out),
    ...extra,
  ]);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
}

const verify = (bundle: string, ...extra: string[]) =>
  runCli(['verify', file(bundle), '--trust-root', file('root.json'), ...extra]);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'valve-verify-memory-'));
  valve = await startValve({
    vars: { RECEIPT_SIGNING_KEY: pkcs8Ed25519(), LOG_SIGNING_KEY: pkcs8Ed25519() },
  });
  save('root.json', await (await fetch(`${valve.url}/v1/trust-root`)).json());
  save('request.json', request);
  save('first.json', await ask(request));
  save('second.json', await ask({ ...request, task: 'second' }));
  await disclose('first.json', 'first-bundle.json');
  await disclose('second.json', 'second-bundle.json', '--fields', 'res.output');
  broken = createServer((_req, res) => {
    res.writeHead(503, { 'content-type': 'application/json' }).end('{"error":"down"}');
  });
  await new Promise<void>((resolve) => broken.listen(0, '127.0.0.1', resolve));
  brokenUrl = `http://127.0.0.1:${(broken.address() as AddressInfo).port}`;
  // Another log: well-formed answers whose proof cannot fit this bundle's checkpoints.
  other = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const from = Number(url.searchParams.get('from') ?? 1);
    const to = Number(url.searchParams.get('to') ?? 2);
    const body = url.pathname.endsWith('/checkpoint')
      ? { origin: 'staging.example/log/0', treeSize: to, rootHash: 'AA==', checkpoint: '' }
      : { from, to, hashes: ['AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA='] };
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
  otherUrl = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await valve?.stop();
  await new Promise((resolve) => broken?.close(resolve));
  await new Promise((resolve) => other?.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

describe('valve-verify remembers checkpoints in the XDG state directory', () => {
  it('keeps the checkpoint under $XDG_STATE_HOME/valve-verify, whatever folder it runs in', async () => {
    const xdg = file('xdg');
    const here = file('elsewhere');
    mkdirSync(here);
    const first = await runCli(['verify', file('first-bundle.json'), '--trust-root', file('root.json')], {
      env: { XDG_STATE_HOME: xdg },
      cwd: here,
    });
    expect(first.code).toBe(0);
    expect(readdirSync(join(xdg, 'valve-verify'))).toEqual([
      `${encodeURIComponent('valve.local/log/0')}.checkpoint`,
    ]);
    expect(existsSync(join(here, '.valve-verify'))).toBe(false);
    const again = await runCli(['verify', file('second-bundle.json'), '--trust-root', file('root.json')], {
      env: { XDG_STATE_HOME: xdg },
      cwd: dir,
    });
    expect(again.stdout).toContain('needs a consistency proof');
  });

  it('falls back to ~/.local/state/valve-verify without XDG_STATE_HOME', async () => {
    const home = file('home');
    const result = await runCli(['verify', file('first-bundle.json'), '--trust-root', file('root.json')], {
      env: { HOME: home, XDG_STATE_HOME: '' },
    });
    expect(result.code).toBe(0);
    expect(readdirSync(join(home, '.local', 'state', 'valve-verify'))).toHaveLength(1);
  });

  it('uses --state instead when given', async () => {
    const state = file('explicit');
    expect((await verify('first-bundle.json', '--state', state)).code).toBe(0);
    expect(readdirSync(state)).toHaveLength(1);
  });
});

describe('valve-verify --fetch and its exit codes', () => {
  it('exits 2 (could not check) offline when the held checkpoint needs a consistency proof', async () => {
    const state = file('offline');
    expect((await verify('first-bundle.json', '--state', state)).code).toBe(0);
    const result = await verify('second-bundle.json', '--state', state);
    expect(result.code).toBe(2);
    expect(result.stdout).toContain('COULD NOT CHECK');
  });

  it('fetches the missing consistency proof from the log with --fetch, and exits 0', async () => {
    const state = file('fetching');
    expect((await verify('first-bundle.json', '--state', state)).code).toBe(0);
    const result = await verify('second-bundle.json', '--state', state, '--fetch', valve.url);
    expect(result.stdout).toMatch(/ok {3}log\.consistency \(consistent from \d+ to \d+\)/);
    expect(result.code).toBe(0);
    const held = readFileSync(join(state, readdirSync(state)[0] as string), 'utf8');
    const bundle = JSON.parse(readFileSync(file('second-bundle.json'), 'utf8')) as { proof: string };
    expect(bundle.proof).toContain(held.split('\n').slice(0, 3).join('\n'));
  });

  it('exits 2 when the log cannot answer the proof, naming the failure', async () => {
    const state = file('broken');
    expect((await verify('first-bundle.json', '--state', state)).code).toBe(0);
    const result = await verify('second-bundle.json', '--state', state, '--fetch', brokenUrl);
    expect(result.code).toBe(2);
    expect(result.stdout).toContain('could not fetch the consistency proof');
    expect(result.stdout).toContain('answered 503');
  });

  it('exits 2, not 3 (fork), when --fetch names a Valve that serves another log', async () => {
    const state = file('other-log');
    expect((await verify('first-bundle.json', '--state', state)).code).toBe(0);
    const result = await verify('second-bundle.json', '--state', state, '--fetch', otherUrl);
    expect(result.code).toBe(2);
    expect(result.stdout).toContain('serves the log "staging.example/log/0"');
  });

  it('exits 1 when a check fails, and 2 on a usage error', async () => {
    const bundle = JSON.parse(readFileSync(file('first-bundle.json'), 'utf8')) as {
      open: Record<string, { value: unknown }>;
    };
    (bundle.open['req.task'] as { value: unknown }).value = 'comparE';
    save('tampered.json', bundle);
    expect((await verify('tampered.json', '--no-state')).code).toBe(1);
    expect((await runCli(['verify', file('first-bundle.json')])).code).toBe(2);
    expect((await verify('first-bundle.json', '--fetch', 'ftp://log')).code).toBe(2);
  });
});

describe('valve-verify disclose --context and --tenant', () => {
  it('opens one of three context items alone, and it verifies', async () => {
    await disclose('first.json', 'one-item.json', '--context', '1');
    const bundle = JSON.parse(readFileSync(file('one-item.json'), 'utf8')) as { salt?: string; open: object };
    expect(bundle.salt).toBeUndefined();
    expect(Object.keys(bundle.open)).toEqual(['req.context[1]']);
    const result = await verify('one-item.json', '--no-state', '--json');
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as { fields: { field: string; status: string }[] };
    const status = Object.fromEntries(report.fields.map((f) => [f.field, f.status]));
    expect(status).toMatchObject({
      'req.context[0]': 'committed, not disclosed',
      'req.context[1]': 'verified',
      'req.context[2]': 'committed, not disclosed',
    });
  });

  it('checks the tenant it is told: 0 for the right one, 1 for another, 2 without salt or key', async () => {
    expect((await verify('first-bundle.json', '--no-state', '--tenant', 'e2e')).code).toBe(0);
    const wrong = await verify('first-bundle.json', '--no-state', '--tenant', 'someone-else');
    expect(wrong.code).toBe(1);
    expect(wrong.stdout).toContain('FAIL tenant (not issued to tenant "someone-else")');
    await disclose('first.json', 'tenant-key.json', '--context', '0', '--tenant', 'e2e');
    expect((await verify('tenant-key.json', '--no-state', '--tenant', 'e2e')).code).toBe(0);
    expect((await verify('one-item.json', '--no-state', '--tenant', 'e2e')).code).toBe(2);
  });

  it('refuses an item the receipt does not commit to', async () => {
    const result = await runCli([
      'disclose',
      '--request',
      file('request.json'),
      '--response',
      file('first.json'),
      '--context',
      '3',
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('commits to no req.context[3]');
  });
});
