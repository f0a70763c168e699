import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientsDir, jsonLines, setupHint, venvPresent, venvPython } from '../helpers/python-clients';
import { type RunningValve, startValve } from '../helpers/start-valve';

// LangChain's standard chat model suite (langchain-tests ChatModelIntegrationTests) on langchain-anthropic's
// ChatAnthropic, against the Anthropic door of a local Valve with the simulator models
// (test/clients/test_langchain_anthropic_standard.py), from the clients' venv (helpers/python-clients).
// Every test must pass, except the standard tests the suite itself skips for an input Valve does not
// take, and those the test class marks as needing a real model's judgement (xfail, with the reason).

interface PytestResult {
  test: string;
  outcome: 'passed' | 'failed' | 'error' | 'skipped' | 'xfailed' | 'xpassed';
  reason: string;
}

const suite = join(clientsDir, 'test_langchain_anthropic_standard.py');
const pytest = (args: string[], env: Record<string, string> = {}, timeout = 30_000) =>
  spawnSync(venvPython, ['-m', 'pytest', suite, '-p', 'no:cacheprovider', '-q', ...args], {
    encoding: 'utf8',
    timeout,
    env: { ...process.env, ...env },
  });

/** The suite's test ids, collected before the run so that each becomes a test here. */
function collect(): string[] {
  const run = pytest(['--collect-only']);
  if (run.status !== 0)
    throw new Error(`collecting the ChatAnthropic suite failed (${setupHint}):\n${run.stdout}${run.stderr}`);
  return run.stdout.split('\n').filter((line) => line.includes('::'));
}
const tests = venvPresent ? collect() : [];

/**
 * The suite's own skips, each for an input Valve does not take or a recorder not set up: media inside a
 * tool result (the door leaves it out with a warning), image URLs (Valve fetches none by default),
 * audio (the Messages API has no audio block), JSON mode (neither has ChatAnthropic: the structured
 * output tests, by tool call and by json_schema, run instead), and the VCR timing test. Images, PDFs
 * and Anthropic's own input blocks run.
 */
const skippedBySuite =
  /^Skipped: (Model does not support (image tool message|PDF tool message|audio inputs)\.|Test requires json mode support\.|VCR not set up\.)$/;

let valve: RunningValve;
let results: PytestResult[] = [];

beforeAll(async () => {
  if (!venvPresent) return;
  valve = await startValve();
  const dir = mkdtempSync(join(tmpdir(), 'valve-langchain-anthropic-'));
  try {
    const resultsFile = join(dir, 'results.jsonl');
    const run = pytest(
      [],
      {
        VALVE_BASE_URL: `${valve.url}/anthropic`,
        VALVE_API_KEY: valve.key,
        VALVE_PYTEST_RESULTS: resultsFile,
      },
      150_000,
    );
    // pytest exits 1 when a test failed: each failure is reported below; any other status is a broken run.
    if (run.status !== 0 && run.status !== 1)
      throw new Error(`the ChatAnthropic suite did not run (${run.status}):\n${run.stdout}${run.stderr}`);
    results = jsonLines<PytestResult>(readFileSync(resultsFile, 'utf8'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 200_000);

afterAll(async () => {
  await valve?.stop();
});

describe.skipIf(!venvPresent)(
  'LangChain standard tests (langchain-tests 1.1.9, langchain-anthropic 1.7.10)',
  () => {
    it('runs the standard suite on ChatAnthropic, plus Valve’s own tests', () => {
      expect(tests.filter((id) => id.includes('::TestValveChatAnthropic::test_')).length).toBeGreaterThan(50);
      expect(
        tests.filter((id) => id.includes('::TestValveChatAnthropic::test_valve_')).length,
      ).toBeGreaterThan(0);
    });

    it.each(tests)('%s', (id) => {
      const result = results.find((r) => r.test === id);
      expect(result, `no result for ${id}`).toBeDefined();
      if (result?.outcome === 'skipped') expect(result.reason).toMatch(skippedBySuite);
      else if (result?.outcome === 'xfailed') expect(result.reason).toMatch(/^needs a real model: /);
      else expect(result?.outcome, result?.reason).toBe('passed');
    });
  },
);
