import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type RunningValve, startValve } from '../helpers/start-valve';

// Claude Code itself, in print mode (`claude -p`), against a local Valve serving the simulator, with
// its telemetry, error reporting and updater off: it answers, and a session whose model calls a tool
// completes. Claude Code ships as a native binary (npm `@anthropic-ai/claude-code-<platform>`, about
// 400 MB, not a dependency of Valve), which `npm run claude-code:setup` (scripts/setup-claude-code.js,
// pinned) fetches into .cache/claude-code. The test runs the binary CLAUDE_CODE_BIN names, or that one;
// without either it skips, and with CI=true it fails (.ci/run fetches it and sets CLAUDE_CODE_BIN).
//
// Offline: every run goes through an HTTP proxy here that refuses and records whatever Claude Code
// sends anywhere but Valve on 127.0.0.1 (NO_PROXY), and each test asserts it recorded nothing.

const fetched = join(import.meta.dirname, '../../../.cache/claude-code/package/claude');
const bin = process.env.CLAUDE_CODE_BIN || fetched;
const claude = existsSync(bin) ? bin : undefined;

if (claude === undefined && process.env.CI === 'true') {
  throw new Error(
    `CI=true but Claude Code's binary is missing (${bin}): run \`npm run claude-code:setup\` (.ci/run does).`,
  );
}

// Every model Claude Code names (its main model and its small fast one) answers from one simulator model.
const catalog = {
  providers: [{ id: 'sim', kind: 'sim' }],
  models: [
    {
      provider: 'sim',
      model: 'code',
      regions: ['lab'],
      priceUsdPerMTok: { input: 1, output: 4 },
      quality: 80,
      latency: { ttftMsP50: 20, ttftMsP90: 40, outputTokensPerSec: 2000 },
      contextTokens: 400_000,
      maxOutputTokens: 32_000,
      capabilities: { tools: true, json: 'native', reasoning: false, base64Data: true },
      inputModalities: ['text', 'image', 'pdf'],
      maxPrivacy: 'confidential',
      answersTo: ['claude-*'],
      simulate: { latencyMs: 1 },
    },
  ],
};

let valve: RunningValve;
let home: string;
let proxy: Server;
let proxyUrl: string;
/** What Claude Code tried to reach past Valve: each CONNECT target or proxied URL, refused. */
const outbound: string[] = [];

beforeAll(async () => {
  if (claude === undefined) return;
  valve = await startValve({ catalog });
  home = mkdtempSync(join(tmpdir(), 'valve-claude-code-'));
  proxy = createServer((req, res) => {
    outbound.push(`${req.method} ${req.url}`);
    res.writeHead(403).end();
  });
  proxy.on('connect', (req, socket) => {
    outbound.push(`CONNECT ${req.url}`);
    socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
}, 120_000);
afterAll(async () => {
  await valve?.stop();
  await new Promise((resolve) => (proxy ? proxy.close(resolve) : resolve(undefined)));
  if (home) rmSync(home, { recursive: true, force: true });
});
afterEach(() => {
  expect(outbound.splice(0), 'Claude Code reached for the network beyond Valve').toEqual([]);
});

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function runClaude(args: string[], extraEnv: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      claude as string,
      args,
      {
        cwd: home,
        timeout: 120_000,
        env: {
          PATH: process.env.PATH ?? '',
          HOME: home,
          ANTHROPIC_BASE_URL: `${valve.url}/anthropic`,
          ANTHROPIC_API_KEY: valve.key,
          // Claude Code's documented switches: usage telemetry, error reports to Sentry, the updater,
          // the bug command, and (the sum of them) all traffic it does not need to answer.
          DISABLE_TELEMETRY: '1',
          DISABLE_ERROR_REPORTING: '1',
          DISABLE_AUTOUPDATER: '1',
          DISABLE_BUG_COMMAND: '1',
          CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
          HTTPS_PROXY: proxyUrl,
          HTTP_PROXY: proxyUrl,
          NO_PROXY: '127.0.0.1,localhost',
          ...extraEnv,
        },
      },
      (error, stdout, stderr) => {
        resolve({
          code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1,
          stdout,
          stderr,
        });
      },
    );
  });
}

describe.skipIf(claude === undefined)('Claude Code against /anthropic', () => {
  it('answers a prompt in print mode', async () => {
    const run = await runClaude(['-p', 'Say hello.', '--output-format', 'json']);
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    const result = JSON.parse(run.stdout) as { is_error: boolean; result: string };
    expect(result.is_error).toBe(false);
    expect(result.result).toContain('[simulated by sim/code]');
  });

  it('completes a session in which the model calls a tool and reads its result', async () => {
    const run = await runClaude([
      '-p',
      'List the files here with Glob.',
      '--output-format',
      'json',
      '--disallowedTools',
      'Agent,Task,Bash,Write,Edit,NotebookEdit,WebFetch,WebSearch',
    ]);
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    const result = JSON.parse(run.stdout) as { is_error: boolean; num_turns: number; session_id: string };
    expect(result.is_error).toBe(false);
    expect(result.num_turns).toBeGreaterThanOrEqual(2);
    // The session's transcript holds the tool call Valve handed over and the result Claude Code sent back.
    const transcript = sessionTranscript(result.session_id);
    const uses = transcript.filter((block) => block.type === 'tool_use');
    const results = transcript.filter((block) => block.type === 'tool_result');
    // The simulator calls the first of Claude Code's tools the prompt names: here its read-only Glob.
    expect(uses.map((use) => use.name)).toContain('Glob');
    expect(results.map((r) => r.tool_use_id)).toEqual(expect.arrayContaining([uses[0]?.id]));
  });

  it('shows a held-back call as the answer, and runs nothing, when x-valve-options marks the tool destructive', async () => {
    const options = { toolAnnotations: { Glob: { destructive: true } } };
    const run = await runClaude(
      [
        '-p',
        'List the files here with Glob.',
        '--output-format',
        'json',
        '--disallowedTools',
        'Agent,Task,Bash,Write,Edit,NotebookEdit,WebFetch,WebSearch',
      ],
      { ANTHROPIC_CUSTOM_HEADERS: `x-valve-options: ${JSON.stringify(options)}` },
    );
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    const result = JSON.parse(run.stdout) as { is_error: boolean; result: string; session_id: string };
    expect(result.is_error).toBe(false);
    expect(result.result).toContain('Valve held back 1 call(s) to the destructive tool(s) Glob');
    expect(sessionTranscript(result.session_id).filter((block) => block.type === 'tool_use')).toEqual([]);
  });
});

interface Block {
  type: string;
  id?: string;
  name?: string;
  tool_use_id?: string;
}

/** Every content block of a session's transcript (~/.claude/projects/<project>/<session>.jsonl). */
function sessionTranscript(sessionId: string): Block[] {
  const projects = join(home, '.claude', 'projects');
  for (const project of readdirSync(projects)) {
    const file = join(projects, project, `${sessionId}.jsonl`);
    if (!existsSync(file)) continue;
    return readFileSync(file, 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '')
      .flatMap((line) => {
        const content = (JSON.parse(line) as { message?: { content?: unknown } }).message?.content;
        return Array.isArray(content) ? (content as Block[]) : [];
      });
  }
  throw new Error(`no transcript of session ${sessionId} under ${projects}`);
}
