import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningValve, startValve } from '../helpers/start-valve';
import { runCli } from './run-cli';

// End to end: a request through the real worker, its receipt, a disclosure bundle built by the CLI,
// and the CLI (spawned as a process, offline) verifying it against the pinned trust root.

function pkcs8Ed25519(): string {
  const { privateKey } = generateKeyPairSync('ed25519');
  return privateKey.export({ type: 'pkcs8', format: 'der' }).toString('base64');
}

const keys = { RECEIPT_SIGNING_KEY: pkcs8Ed25519(), LOG_SIGNING_KEY: pkcs8Ed25519() };
const salt = 'ZW5kLXRvLWVuZC1lbmQtdG8tZW5kLWVuZC10by1lbmQtZW5kLXRv';
let valve: RunningValve;
let dir: string;

const file = (name: string) => join(dir, name);
const save = (name: string, value: unknown) => writeFileSync(file(name), JSON.stringify(value, null, 2));

async function get(path: string, headers: Record<string, string> = {}): Promise<unknown> {
  const res = await fetch(`${valve.url}${path}`, { headers });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return res.json();
}

async function ask(target: RunningValve, body: Record<string, unknown>): Promise<unknown> {
  const res = await fetch(`${target.url}/v1/reason`, {
    method: 'POST',
    headers: { authorization: `Bearer ${target.key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (res.status !== 200) throw new Error(`reason: ${res.status} ${await res.text()}`);
  return res.json();
}

const request = {
  task: 'summarize',
  instructions: 'Summarize the ticket in one sentence.',
  context: [{ label: 'ticket', trust: 'untrusted', privacy: 'internal', content: 'The printer is on fire.' }],
  receiptSalt: salt,
};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'valve-verify-'));
  valve = await startValve({ vars: keys });
  save('root.json', await get('/v1/trust-root'));
  save('request.json', request);
  save('response.json', await ask(valve, request));
});

afterAll(async () => {
  await valve?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('valve-verify against a running Valve', () => {
  it('verifies a full-salt bundle built by `disclose`, and exits 0', async () => {
    const disclosed = await runCli([
      'disclose',
      '--request',
      file('request.json'),
      '--response',
      file('response.json'),
      '--out',
      file('full.json'),
    ]);
    expect(disclosed.code).toBe(0);
    const result = await runCli([
      'verify',
      file('full.json'),
      '--trust-root',
      file('root.json'),
      '--state',
      file('state'),
    ]);
    expect(result.stdout).toContain('VERIFIED');
    expect(result.stdout).not.toContain('FAIL');
    expect(result.code).toBe(0);
  });

  it('verifies a bundle opening only res.output and req.instructions, listing the rest as committed', async () => {
    await runCli([
      'disclose',
      '--request',
      file('request.json'),
      '--response',
      file('response.json'),
      '--fields',
      'res.output,req.instructions',
      '--out',
      file('partial.json'),
    ]);
    const bundle = JSON.parse(readFileSync(file('partial.json'), 'utf8')) as { salt?: string };
    expect(bundle.salt).toBeUndefined();
    const result = await runCli([
      'verify',
      file('partial.json'),
      '--trust-root',
      file('root.json'),
      '--no-state',
      '--json',
    ]);
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as { fields: { field: string; status: string }[] };
    expect(report.fields.filter((f) => f.status === 'verified').map((f) => f.field)).toEqual([
      'req.instructions',
      'res.output',
    ]);
    // The ten other v1 fields, the tenant and the one context item.
    expect(report.fields.filter((f) => f.status === 'committed, not disclosed')).toHaveLength(12);
  });

  it('answers the same report from POST /v1/receipts/verify', async () => {
    const bundle = readFileSync(file('partial.json'), 'utf8');
    const res = await fetch(`${valve.url}/v1/receipts/verify`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: bundle,
    });
    const cli = await runCli([
      'verify',
      file('partial.json'),
      '--trust-root',
      file('root.json'),
      '--no-state',
      '--json',
    ]);
    expect(await res.json()).toEqual(JSON.parse(cli.stdout));
  });

  it('refuses a bundle that opens __proto__ or another name no receipt has, in the CLI and the API', async () => {
    // JSON.parse keeps "__proto__" as an ordinary member; a check that skips it would verify a
    // bundle carrying a name nobody looked at.
    const full = readFileSync(file('full.json'), 'utf8');
    for (const name of ['__proto__', 'constructor', 'req.secret']) {
      const text = full.replace(
        '"open": {',
        `"open": {\n    ${JSON.stringify(name)}: { "value": "unchecked" },`,
      );
      writeFileSync(file('extra-name.json'), text);
      const result = await runCli([
        'verify',
        file('extra-name.json'),
        '--trust-root',
        file('root.json'),
        '--no-state',
      ]);
      expect(result.stdout, name).toContain(
        `FAIL bundle.format (open names ${JSON.stringify(name)}, which is not a receipt field or item)`,
      );
      expect(result.code, name).toBe(1);
      const res = await fetch(`${valve.url}/v1/receipts/verify`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: text,
      });
      expect(res.status, name).toBe(400);
      expect(((await res.json()) as { error: { message: string } }).error.message).toContain(
        `open names ${JSON.stringify(name)}`,
      );
    }
  });

  it('exits 1 and names the check when one byte of the bundle changes', async () => {
    const bundle = JSON.parse(readFileSync(file('full.json'), 'utf8')) as {
      open: Record<string, { value: unknown }>;
    };
    (bundle.open['req.instructions'] as { value: unknown }).value = 'Summarize the ticket in one sentencE.';
    save('tampered.json', bundle);
    const result = await runCli([
      'verify',
      file('tampered.json'),
      '--trust-root',
      file('root.json'),
      '--no-state',
    ]);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/FAIL open\.req\.instructions/);
  });

  it('asks for a consistency proof against the checkpoint it holds, and accepts a valid one', async () => {
    const state = file('state-consistency');
    const first = await runCli([
      'verify',
      file('full.json'),
      '--trust-root',
      file('root.json'),
      '--state',
      state,
    ]);
    expect(first.code).toBe(0);
    const held = Number(readFileSync(file('full.json'), 'utf8').match(/\\n(\d+)\\n/)?.[1]);
    save('response2.json', await ask(valve, { ...request, task: 'second' }));
    await runCli([
      'disclose',
      '--request',
      file('request.json'),
      '--response',
      file('response2.json'),
      '--fields',
      'res.output',
      '--out',
      file('second.json'),
    ]);
    const withoutProof = await runCli([
      'verify',
      file('second.json'),
      '--trust-root',
      file('root.json'),
      '--state',
      state,
    ]);
    expect(withoutProof.code).toBe(2);
    expect(withoutProof.stdout).toContain('COULD NOT CHECK');
    expect(withoutProof.stdout).toContain('needs a consistency proof');
    const size = Number(readFileSync(file('second.json'), 'utf8').match(/\\n(\d+)\\n/)?.[1]);
    save('consistency.json', await get(`/v1/log/consistency?from=${held}&to=${size}`));
    const withProof = await runCli([
      'verify',
      file('second.json'),
      '--trust-root',
      file('root.json'),
      '--state',
      state,
      '--consistency',
      file('consistency.json'),
    ]);
    expect(withProof.stdout).toContain('consistent from');
    expect(withProof.code).toBe(0);
  });

  it('reports a fork as a security error with both checkpoints, exit 3', async () => {
    // A second log with the same origin and key but other history: what a forking log would show.
    const twin = await startValve({ vars: keys });
    try {
      const state = file('state-fork');
      const own = await runCli([
        'verify',
        file('full.json'),
        '--trust-root',
        file('root.json'),
        '--state',
        state,
      ]);
      expect(own.code).toBe(0);
      const other = { ...request, instructions: 'Something else entirely.' };
      save('twin-request.json', other);
      save('twin-response.json', await ask(twin, other));
      await runCli([
        'disclose',
        '--request',
        file('twin-request.json'),
        '--response',
        file('twin-response.json'),
        '--out',
        file('twin.json'),
      ]);
      const result = await runCli([
        'verify',
        file('twin.json'),
        '--trust-root',
        file('root.json'),
        '--state',
        state,
      ]);
      expect(result.code).toBe(3);
      expect(result.stdout).toContain('SECURITY ERROR');
      expect(result.stdout).toContain('checkpoint held:');
      expect(result.stdout).toContain('checkpoint new:');
    } finally {
      await twin.stop();
    }
  });

  it('checks the audit trail: a valid chain whose records are all in the log', async () => {
    const admin = { authorization: `Bearer ${valve.adminToken}` };
    save('trail.json', await get('/v1/admin/audit', admin));
    save('audit-proofs.json', await get('/v1/admin/audit/proofs', admin));
    const ok = await runCli([
      'audit',
      file('trail.json'),
      '--proofs',
      file('audit-proofs.json'),
      '--trust-root',
      file('root.json'),
    ]);
    expect(ok.stdout).toContain('ok   audit.inclusion');
    expect(ok.code).toBe(0);
    const trail = JSON.parse(readFileSync(file('trail.json'), 'utf8')) as { records: { action: string }[] };
    (trail.records[0] as { action: string }).action = 'key.revoked';
    save('trail-tampered.json', trail);
    const bad = await runCli(['audit', file('trail-tampered.json')]);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toContain('FAIL audit.chain');
  });
});
