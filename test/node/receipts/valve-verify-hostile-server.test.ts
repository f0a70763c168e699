import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RunningValve } from '../helpers/start-valve';
import { answerHuge, answerJson, type FakeLog, type FakeLogHandler, startFakeLog } from './fake-log';
import { runCli } from './run-cli';
import { startValveWithTwoBundles } from './two-bundles';

// `valve-verify --fetch` against a log server that fights back: one that never answers, one that
// floods, one that redirects, one that writes terminal escape codes. Each must end, within its
// timeout, as "could not check" (exit 2) with a plain message, and never hang, grow or repaint the
// terminal. The CLI is killed after 20 s, so a hang fails the test instead of stalling the run.

let valve: RunningValve;
let dir: string;
let checkpointBody: unknown;
let fake: FakeLog | undefined;
let states = 0;

const file = (name: string) => join(dir, name);

/** Holds the first bundle's checkpoint in a fresh state, then verifies the second with --fetch `url`. */
async function fetchThrough(handler: FakeLogHandler, ...extra: string[]) {
  fake = await startFakeLog(handler);
  const state = file(`state-${states++}`);
  const verify = (bundle: string, ...more: string[]) =>
    runCli(['verify', file(bundle), '--trust-root', file('root.json'), '--state', state, ...more], {
      killAfterMs: 20_000,
    });
  const first = await verify('first-bundle.json');
  expect(first.code, first.stdout).toBe(0);
  return verify('second-bundle.json', '--fetch', fake.url, ...extra);
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'valve-verify-hostile-'));
  valve = await startValveWithTwoBundles(dir);
  checkpointBody = await (await fetch(`${valve.url}/v1/log/checkpoint`)).json();
});

afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

afterAll(async () => {
  await valve?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('valve-verify --fetch gives up on a log that stalls', () => {
  it('stops waiting for a log that never answers, after --timeout, and exits 2', async () => {
    const started = Date.now();
    const result = await fetchThrough(() => {}, '--timeout', '0.5');
    expect(result.code).toBe(2);
    expect(result.stdout).toContain('COULD NOT CHECK');
    expect(result.stdout).toContain('did not answer within 0.5 s');
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it('stops waiting for a body that starts and never ends', async () => {
    const result = await fetchThrough((path, _req, res) => {
      if (path.endsWith('/checkpoint')) answerJson(res, checkpointBody);
      else res.writeHead(200, { 'content-type': 'application/json' }).write('{"from":1,"to"');
    }, '--timeout=0.5');
    expect(result.code).toBe(2);
    expect(result.stdout).toContain('/v1/log/consistency?');
    expect(result.stdout).toContain('did not answer within 0.5 s');
  });

  it('refuses a --timeout that is not a positive number of seconds', async () => {
    for (const bad of ['0', '-1', 'soon', '1e3', '']) {
      const result = await runCli([
        'verify',
        file('first-bundle.json'),
        '--trust-root',
        file('root.json'),
        '--no-state',
        `--timeout=${bad}`,
      ]);
      expect(result.code, bad).toBe(2);
      expect(result.stderr).toContain('--timeout takes seconds');
    }
  });
});

describe('valve-verify --fetch reads a bounded answer', () => {
  it('stops reading past 1 MiB and exits 2, without holding or printing the flood', async () => {
    const result = await fetchThrough((_path, _req, res) => answerHuge(res, 64 * 1024 * 1024));
    // The length first: a failed toContain on megabytes of output would spend minutes on its diff.
    expect(result.stdout.length).toBeLessThan(10_000);
    expect(result.stdout).toContain('answered more than 1048576 bytes');
    expect(result.code).toBe(2);
  });

  it('refuses a declared Content-Length past the bound before reading it', async () => {
    const result = await fetchThrough((path, _req, res) => {
      if (path.endsWith('/checkpoint')) answerJson(res, checkpointBody);
      else res.writeHead(200, { 'content-length': String(2 ** 31) }).write('{');
    });
    expect(result.code).toBe(2);
    expect(result.stdout).toContain('answered more than 1048576 bytes');
  });
});

describe('valve-verify --fetch follows no redirect', () => {
  it('reports a redirect as could not check, naming where it pointed, even to the real log', async () => {
    const result = await fetchThrough((path, _req, res) => {
      res.writeHead(302, { location: `${valve.url}${path}` }).end();
    });
    expect(result.code).toBe(2);
    expect(result.stdout).toContain('answered a redirect (302 to');
    expect(result.stdout).toContain(`${valve.url}/v1/log/checkpoint`);
    expect(result.stdout).not.toContain('consistent from');
  });
});

describe('valve-verify prints no control character a log server sends', () => {
  // Erase the line, print a green VERIFIED, then flip the rest of the line right to left; U+009B is the
  // one-byte C1 form of ESC [.
  const paint = '\u001b[2K\r\u001b[32mVERIFIED\u001b[0m\u009b1A\u202e\u2066\n  ok   log.consistency';
  const liar: FakeLogHandler = (_path, _req, res) =>
    answerJson(res, { ...(checkpointBody as object), origin: paint });
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
  const controls = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/;

  it('shows escape codes in the text report as visible escapes, not raw', async () => {
    const result = await fetchThrough(liar);
    expect(result.code).toBe(2);
    expect(result.stdout).not.toMatch(controls);
    expect(result.stdout).toContain('\\u001b[32mVERIFIED\\u001b[0m\\u009b1A\\u202e\\u2066\\n');
    expect(result.stdout.match(/^ {2}ok {3}log\.consistency/m)).toBeNull();
  });

  it('keeps them escaped in the --json report too, which still parses to the same text', async () => {
    const result = await fetchThrough(liar, '--json');
    expect(result.code).toBe(2);
    expect(result.stdout).not.toMatch(controls);
    const report = JSON.parse(result.stdout) as { checks: { detail?: string }[] };
    expect(report.checks.at(-1)?.detail).toContain('serves the log');
  });
});
