import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createCosigner,
  formatCosignerKey,
  parseCosignerKey,
  readCosignatures,
} from '../../../src/log/cosignature';
import { createNoteSigner, formatVerifierKey, signNote } from '../../../src/log/signed-note';
import { type RunningValve, startValve } from '../helpers/start-valve';
import { runCli } from './run-cli';
import { discloseAll, logKeys, request, save } from './two-bundles';

// Witnesses, end to end: a real Worker with LOG_WITNESSES naming two valve-witness processes (each its
// own key and state file). After its batches the log pushes its checkpoint to both; the cosigned
// checkpoint is served at /log/0/checkpoint and in GET /v1/receipts/{id}; valve-verify checks "k of
// these witnesses" and names who signed. Then the log's key signs a second history of the same size,
// and the witness refuses it: a split view is never cosigned.

const witnessCli = join(import.meta.dirname, '../../../bin/valve-witness.js');
const ORIGIN = 'valve.local/log/0';
const keys = logKeys();
let dir: string;
let valve: RunningValve;
const children: ChildProcess[] = [];
const witnesses: { name: string; url: string; verifierKey: string }[] = [];

async function startWitness(
  name: string,
  logKey: string,
): Promise<{ name: string; url: string; verifierKey: string }> {
  const child = spawn(
    process.execPath,
    [
      witnessCli,
      '--name',
      name,
      '--key',
      join(dir, `${name}.key`),
      '--state',
      join(dir, `${name}.json`),
      '--log',
      logKey,
      '--port',
      '0',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  children.push(child);
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const line = await new Promise<string>((resolve, reject) => {
    child.stdout?.once('data', (chunk: Buffer) => resolve(chunk.toString()));
    child.once('exit', (code) => reject(new Error(`valve-witness exited ${code}: ${stderr}`)));
  });
  return JSON.parse(line) as { name: string; url: string; verifierKey: string };
}

async function askFor(task: string): Promise<{ receiptId: string; receipt: { proof: string } }> {
  const body = { ...request, task };
  const res = await fetch(`${valve.url}/v1/reason`, {
    method: 'POST',
    headers: { authorization: `Bearer ${valve.key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (res.status !== 200) throw new Error(`reason: ${res.status} ${await res.text()}`);
  const response = (await res.json()) as { receiptId: string; receipt: { proof: string } };
  await discloseAll(dir, body, response, `${task}.json`);
  return response;
}

/** The published checkpoint once it carries `count` cosignatures, polled for up to 20 s. */
async function cosignedCheckpoint(count: number): Promise<string> {
  const cosigners = witnesses.map((w) => {
    const parsed = parseCosignerKey(w.verifierKey);
    if (!parsed.ok) throw new Error(parsed.reason);
    return parsed.value;
  });
  for (let i = 0; i < 200; i++) {
    const note = await (await fetch(`${valve.url}/log/0/checkpoint`)).text();
    const read = await readCosignatures(note, cosigners);
    if (read.ok && read.value.cosignatures.length >= count) return note;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the checkpoint was never cosigned');
}

/** `--witness <key>` for each key, then `--witness-quorum <k>` when given. */
const trusting = (keys: string[], quorum?: number) => [
  ...keys.flatMap((key) => ['--witness', key]),
  ...(quorum === undefined ? [] : ['--witness-quorum', String(quorum)]),
];

const verify = (bundle: string, ...extra: string[]) =>
  runCli(['verify', join(dir, bundle), '--trust-root', join(dir, 'root.json'), '--no-state', ...extra]);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'valve-witnessed-'));
  const logKey = formatVerifierKey(ORIGIN, (await createNoteSigner(ORIGIN, keys.LOG_SIGNING_KEY)).publicKey);
  for (const name of ['w1.witness.test', 'w2.witness.test']) witnesses.push(await startWitness(name, logKey));
  valve = await startValve({
    vars: {
      ...keys,
      LOG_WITNESSES: witnesses.map((w) => `${w.verifierKey} ${w.url}`).join('\n'),
      LOG_WITNESS_DELAY_MS: '50',
    },
  });
  save(dir, 'root.json', await (await fetch(`${valve.url}/v1/trust-root`)).json());
}, 120_000);

afterAll(async () => {
  await valve?.stop();
  for (const child of children) child.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
});

describe('a deployment with two witnesses', () => {
  it('has each new checkpoint cosigned by both, and serves it cosigned at /log/0/checkpoint', async () => {
    await askFor('first');
    const note = await cosignedCheckpoint(2);
    // The log holds the admin's audit entries (the API key made at start) and the receipt.
    const [origin, size] = note.split('\n');
    expect(origin).toBe(ORIGIN);
    expect(Number(size)).toBeGreaterThanOrEqual(1);
    // Each witness recorded the checkpoint it cosigned, in its own state file.
    for (const w of witnesses) {
      const state = JSON.parse(readFileSync(join(dir, `${w.name}.json`), 'utf8')) as {
        heads: Record<string, { size: number }>;
      };
      expect(state.heads[ORIGIN]?.size).toBe(Number(size));
    }
  });

  it('gives a receipt a proof that carries the cosignatures, and valve-verify checks k of n and names who signed', async () => {
    const response = await askFor('second');
    // The answer's own proof is at the batch's checkpoint, before any witness saw it.
    expect((await verify('second.json', ...trusting([witnesses[0]?.verifierKey as string]))).code).toBe(1);
    await cosignedCheckpoint(2);
    const res = await fetch(`${valve.url}/v1/receipts/${response.receiptId}`, {
      headers: { authorization: `Bearer ${valve.key}` },
    });
    const stored = (await res.json()) as { proof: string };
    expect(stored.proof).toContain('— w1.witness.test ');
    expect(stored.proof).toContain('— w2.witness.test ');
    const refreshed = { ...response, receipt: { ...response.receipt, proof: stored.proof } };
    await discloseAll(dir, { ...request, task: 'second' }, refreshed, 'second-cosigned.json');
    const [w1, w2] = witnesses.map((w) => w.verifierKey) as [string, string];
    const both = await verify('second-cosigned.json', ...trusting([w1, w2]));
    expect(both.stdout).toContain('VERIFIED');
    expect(both.stdout).toContain(
      '2 of the 2 trusted witnesses (2 required): cosigned by w1.witness.test, w2.witness.test',
    );
    expect(both.code).toBe(0);
    // A witness the log never pushed to: 2 of 3 meets a quorum of 2 and fails a quorum of 3.
    const stranger = await createCosigner('w3.witness.test', logKeys().LOG_SIGNING_KEY);
    const w3 = formatCosignerKey(stranger.name, stranger.publicKey);
    const json = await verify('second-cosigned.json', ...trusting([w1, w2, w3], 3), '--json');
    expect(json.code).toBe(1);
    const report = JSON.parse(json.stdout) as {
      log: { cosignedBy: { name: string }[] };
      checks: { check: string; ok: boolean }[];
    };
    expect(report.log.cosignedBy.map((c) => c.name)).toEqual(['w1.witness.test', 'w2.witness.test']);
    expect(report.checks.find((c) => c.check === 'log.witnesses')?.ok).toBe(false);
    const two = await verify('second-cosigned.json', ...trusting([w1, w2, w3], 2));
    expect(two.code).toBe(0);
  });

  it('fetches the cosigned proof for a bundle straight from the answer (--fetch), and checks it is consistent', async () => {
    await cosignedCheckpoint(2);
    const [w1, w2] = witnesses.map((w) => w.verifierKey) as [string, string];
    const result = await verify('second.json', ...trusting([w1, w2]), '--fetch', valve.url, '--json');
    const report = JSON.parse(result.stdout) as {
      verdict: string;
      log: { treeSize: number; cosignedBy: { name: string }[] };
      checks: { check: string; ok: boolean; detail: string }[];
    };
    expect(report.verdict).toBe('verified');
    expect(report.log.cosignedBy.map((c) => c.name)).toEqual(['w1.witness.test', 'w2.witness.test']);
    expect(report.checks.find((c) => c.check === 'log.cosigned_proof')?.detail).toMatch(
      /^the bundle's checkpoint \(size \d+\) lacked the witnesses; the log's proof at size \d+ has them, and is consistent with it$/,
    );
    expect(result.code).toBe(0);
  });

  it('refuses to cosign a second history of a size it cosigned: the split view is caught', async () => {
    const note = await cosignedCheckpoint(2);
    const [, sizeText] = note.split('\n');
    const size = Number(sizeText);
    // The log's own key signs a different tree of the same size (as a log showing two histories would).
    const signer = await createNoteSigner(ORIGIN, keys.LOG_SIGNING_KEY);
    const forked = await signNote(`${ORIGIN}\n${size}\n${Buffer.alloc(32, 7).toString('base64')}\n`, signer);
    for (const w of witnesses) {
      const res = await fetch(`${w.url}/add-checkpoint`, {
        method: 'POST',
        body: `old ${size}\n\n${forked}`,
      });
      expect(res.status).toBe(409);
      expect(await res.text()).toBe(`a different tree of size ${size} than the one this witness cosigned\n`);
      const state = JSON.parse(readFileSync(join(dir, `${w.name}.json`), 'utf8')) as {
        heads: Record<string, { size: number; checkpoint: string }>;
        refused: { checkpoint: string }[];
      };
      expect(state.refused.map((r) => r.checkpoint)).toEqual([forked]);
      expect(state.heads[ORIGIN]?.checkpoint.startsWith(note.slice(0, note.indexOf('\n\n')))).toBe(true);
    }
  });
});
