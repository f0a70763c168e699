import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningValve, startValve } from '../helpers/start-valve';
import { documentFiles, type FencedBlock, fencedBlocks, readDocument } from './markdown';
import { type Answer, kindOf, type LocalValve, runJson, runScript, runShell } from './run-example';

// Every shell, JSON, JavaScript and TypeScript example in README.md, CONTRIBUTING.md and docs/*.md runs
// here against a local Valve (the simulator catalog), or says why not in a `<!-- not run: … -->`
// comment right before it. The docs write the local Valve as http://127.0.0.1:8787, the API key as
// $VALVE_KEY (process.env.VALVE_KEY in code) and the admin token as $ADMIN_TOKEN.

interface Example {
  file: string;
  block: FencedBlock;
  /** The shell example just before it in its file, whose answer a JSON example may show. */
  after?: FencedBlock;
}

const examples: Example[] = documentFiles().flatMap((file) => {
  const blocks = fencedBlocks(readDocument(file));
  return blocks.flatMap((block, i) => {
    const previous = blocks[i - 1];
    return kindOf(block) === undefined ? [] : [{ file, block, after: previous }];
  });
});
const runnable = examples.filter((example) => example.block.notRun === undefined);
const marked = examples.filter((example) => example.block.notRun !== undefined);

let running: RunningValve;
let valve: LocalValve;
const answers = new Map<FencedBlock, Answer | undefined>();

beforeAll(async () => {
  // Blank provider keys: a developer's .dev.vars must not send an example to a real provider.
  running = await startValve({ vars: { OPENAI_API_KEY: '', ANTHROPIC_API_KEY: '', GEMINI_API_KEY: '' } });
  const res = await fetch(`${running.url}/v1/admin/keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${running.adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ tenant: 'docs-spare', scopes: ['reason'] }),
  });
  const { id } = (await res.json()) as { id: string };
  valve = { url: running.url, key: running.key, adminToken: running.adminToken, spareKeyId: id };
}, 60_000);

afterAll(async () => {
  await running?.stop();
});

async function run({ file, block, after }: Example): Promise<string[]> {
  const kind = kindOf(block);
  if (kind === 'shell') {
    const { problems, answer } = await runShell(block, valve);
    answers.set(block, answer);
    return problems;
  }
  if (kind === 'json') {
    if (
      after !== undefined &&
      kindOf(after) === 'shell' &&
      after.notRun === undefined &&
      !answers.has(after)
    ) {
      answers.set(after, (await runShell(after, valve)).answer);
    }
    return runJson(block, valve, after === undefined ? undefined : answers.get(after));
  }
  const name = `${file.replace(/[/.]/g, '-')}-${block.line}`;
  return runScript(block, name, valve);
}

describe('examples in the documentation', () => {
  it('finds examples to run, and each one that is not run says why', () => {
    expect(runnable.length).toBeGreaterThan(10);
    for (const { file, block } of marked) expect(block.notRun, `${file}:${block.line}`).not.toBe('');
  });

  it('finds no untagged block that holds a command or JSON', () => {
    const untagged = documentFiles().flatMap((file) =>
      fencedBlocks(readDocument(file))
        .filter((block) => block.lang === '' && /^\s*(\$ |curl |\{)/.test(block.text))
        .map((block) => `${file}:${block.line}`),
    );
    expect(untagged).toEqual([]);
  });

  it.each(runnable.map((example) => [`${example.file}:${example.block.line}`, example] as const))(
    '%s runs as the docs say',
    async (_, example) => {
      expect(await run(example)).toEqual([]);
    },
  );
});

describe('the example runner', () => {
  const block = (lang: string, text: string): FencedBlock => ({ lang, text, line: 1 });
  const curl = (body: string) =>
    `curl -s http://127.0.0.1:8787/v1/reason -H "Authorization: Bearer $VALVE_KEY" \\\n` +
    `  -H 'Content-Type: application/json' -d '${body}'`;

  it('catches a request body the schema refuses', async () => {
    const problems = await runJson(
      block('json', '{ "task": "t", "instructions": "i", "maxCostUSD": 1 }'),
      valve,
    );
    expect(problems).toContain(
      'not a valid request: # Property "maxCostUSD" does not match additional properties schema.',
    );
  });

  it('catches a curl that does not answer 2xx, or not the status its comment says', async () => {
    const wrongKey = await runShell(block('sh', curl('{}').replace('$VALVE_KEY', 'vk_wrong')), valve);
    expect(wrongKey.problems[0]).toMatch(/^POST \/v1\/reason answered 401: .*auth\.invalid_key/);
    const notInvalid = await runShell(
      block('sh', `${curl('{ "task": "t", "instructions": "i" }')}\n# → 400`),
      valve,
    );
    expect(notInvalid.problems[0]).toMatch(/^POST \/v1\/reason answered 200: /);
  });

  it('catches an answer that shows a member the real answer lacks', async () => {
    const { answer } = await runShell(block('sh', curl('{ "task": "t", "instructions": "i" }')), valve);
    const shown = block(
      'json',
      '{ "receiptId": "01a24043-984c-8a0c-9b7f-be47c63ddab5", "costUSD": 1, "output": "…" }',
    );
    const problems = await runJson(shown, valve, answer);
    expect(problems).toContain(
      'not a valid answer: # Property "costUSD" does not match additional properties schema.',
    );
    expect(problems).toContain('shows costUSD, which the answer of the command above has not');
  });

  it('refuses to guess at a command it cannot run', async () => {
    const { problems } = await runShell(block('sh', 'npm run deploy:check'), valve);
    expect(problems).toEqual(['cannot run here (runs `npm`): mark it <!-- not run: why -->']);
  });

  it('catches a script that fails', async () => {
    const problems = await runScript(
      block('js', "throw new Error('broken example');"),
      'runner-fails',
      valve,
    );
    expect(problems[0]).toMatch(/^exited 1: .*broken example/s);
  });
});
