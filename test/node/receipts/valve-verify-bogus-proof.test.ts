import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type RunningValve, startValve } from '../helpers/start-valve';
import { answerJson, type FakeLog, startFakeLog } from './fake-log';
import { runCli } from './run-cli';
import { ask, discloseAll, logKeys, request, save, startValveWithTwoBundles } from './two-bundles';

// A fork is a security error only on evidence nobody but the log could have made. Two signed
// checkpoints that are in fact consistent, and a log server (or a file) answering a proof that does
// not verify: that shows a bad proof, not a fork — "could not check", exit 2. The log's own proof
// that leads to one signed root and, through it, to another root at the other signed size: a fork.

const keys = logKeys();
let valve: RunningValve;
let dir: string;
let checkpointBody: unknown;
let honest: { from: number; to: number; hashes: string[] };
let fake: FakeLog | undefined;
let states = 0;

const file = (name: string) => join(dir, name);
const sizeOf = (bundle: string) => Number(readFileSync(file(bundle), 'utf8').match(/\\n(\d+)\\n/)?.[1]);
const randomHash = () => randomBytes(32).toString('base64');

async function holdFirstThenVerify(bundle: string, held: string, ...extra: string[]) {
  const state = file(`state-${states++}`);
  const verify = (name: string, ...more: string[]) =>
    runCli(['verify', file(name), '--trust-root', file('root.json'), '--state', state, ...more], {
      killAfterMs: 20_000,
    });
  const first = await verify(held);
  expect(first.code, first.stdout).toBe(0);
  return verify(bundle, ...extra);
}

/** A log server that serves the real checkpoint and answers every consistency request with `proof`. */
async function lyingLog(proof: (from: number, to: number) => unknown): Promise<string> {
  fake = await startFakeLog((path, req, res) => {
    if (path.endsWith('/checkpoint')) return answerJson(res, checkpointBody);
    const query = new URL(req.url ?? '/', 'http://x').searchParams;
    answerJson(res, proof(Number(query.get('from')), Number(query.get('to'))));
  });
  return fake.url;
}

function expectCouldNotCheck(result: { code: number | null; stdout: string }) {
  expect(result.stdout).not.toContain('SECURITY');
  expect(result.stdout).toContain('COULD NOT CHECK');
  expect(result.stdout).toMatch(
    /FAIL log\.consistency \(the consistency proof from \d+ to \d+ does not verify/,
  );
  expect(result.stdout).toContain('not that the log forked');
  expect(result.code).toBe(2);
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'valve-verify-bogus-'));
  valve = await startValveWithTwoBundles(dir, keys);
  checkpointBody = await (await fetch(`${valve.url}/v1/log/checkpoint`)).json();
  const from = sizeOf('first-bundle.json');
  const to = sizeOf('second-bundle.json');
  honest = (await (
    await fetch(`${valve.url}/v1/log/consistency?from=${from}&to=${to}`)
  ).json()) as typeof honest;
});

afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

afterAll(async () => {
  await valve?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('valve-verify never cries fork on a bad proof for consistent checkpoints', () => {
  it('exits 2, not 3, when --fetch answers random hashes', async () => {
    const url = await lyingLog((from, to) => ({ from, to, hashes: honest.hashes.map(randomHash) }));
    expectCouldNotCheck(await holdFirstThenVerify('second-bundle.json', 'first-bundle.json', '--fetch', url));
  });

  it('exits 2, not 3, when --fetch answers no hashes at all', async () => {
    const url = await lyingLog((from, to) => ({ from, to, hashes: [] }));
    expectCouldNotCheck(await holdFirstThenVerify('second-bundle.json', 'first-bundle.json', '--fetch', url));
  });

  it('exits 2, not 3, for a bogus proof given with --consistency', async () => {
    for (const hashes of [honest.hashes.map(randomHash), [], [randomHash()]]) {
      const proof = save(dir, `bogus-${states}.json`, { ...honest, hashes });
      expectCouldNotCheck(
        await holdFirstThenVerify('second-bundle.json', 'first-bundle.json', '--consistency', proof),
      );
    }
  });

  it('exits 2, not 1, for a proof whose hashes are not base64', async () => {
    const proof = save(dir, 'not-base64.json', { ...honest, hashes: ['not base64!'] });
    const result = await holdFirstThenVerify(
      'second-bundle.json',
      'first-bundle.json',
      '--consistency',
      proof,
    );
    expect(result.stdout).toContain('proof hash is not base64');
    expect(result.code).toBe(2);
  });

  it('still accepts the honest proof', async () => {
    const proof = save(dir, 'honest.json', honest);
    const result = await holdFirstThenVerify(
      'second-bundle.json',
      'first-bundle.json',
      '--consistency',
      proof,
    );
    expect(result.stdout).toContain('consistent from');
    expect(result.code).toBe(0);
  });
});

describe('valve-verify reports a fork on evidence the log itself signed', () => {
  it('exits 3 when the log proves its signed root does not extend the held one, showing both and the proof', async () => {
    // A second log with the same origin and key and another history: what a forking log shows. The
    // held checkpoint is the twin's at a size that is not a power of two (there the proof names the
    // first root); the log's own proof from it to a later checkpoint leads to that later root and,
    // through it, to another root at the held size.
    const twin = await startValve({ vars: keys });
    try {
      const other = { ...request, instructions: 'Something else entirely.' };
      for (let n = 0; ; n++) {
        const asked = { ...other, task: `twin ${n}` };
        await discloseAll(dir, asked, await ask(twin, asked), 'twin.json');
        const size = sizeOf('twin.json');
        if (size >= 3 && (size & (size - 1)) !== 0) break;
      }
      for (let n = 0; n === 0 || sizeOf('twin.json') >= sizeOf('later.json'); n++) {
        const asked = { ...request, task: `later ${n}` };
        await discloseAll(dir, asked, await ask(valve, asked), 'later.json');
      }
      const result = await holdFirstThenVerify('later.json', 'twin.json', '--fetch', valve.url);
      expect(result.stdout).toContain('SECURITY ERROR');
      expect(result.stdout).toMatch(/the log's own consistency proof from \d+ to \d+ leads to/);
      expect(result.stdout).toContain('checkpoint held:');
      expect(result.stdout).toContain('checkpoint new:');
      expect(result.stdout).toMatch(/consistency proof from \d+ to \d+:\n {4}[A-Za-z0-9+/]{43}=/);
      expect(result.code).toBe(3);
    } finally {
      await twin.stop();
    }
  });
});
