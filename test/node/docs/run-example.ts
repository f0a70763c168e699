import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Validator } from '@cfworker/json-schema';
import { build } from 'esbuild';
import catalogSchema from '../../../schemas/catalog.schema.json';
import errorSchema from '../../../schemas/error.schema.json';
import requestSchema from '../../../schemas/reason-request.schema.json';
import responseSchema from '../../../schemas/reason-response.schema.json';
import { lookupErrorCode, registeredErrorCodes } from '../../../src/errors';
import type { FencedBlock } from './markdown';
import { repoRoot } from './markdown';
import { curlRequest, isNotRunnable, type Placeholders, parseShell } from './shell-example';

// Runs one fenced example of the docs against a local Valve and says what is wrong with it ([] when
// nothing is): curl commands as fetch calls, JSON bodies through their schema (and a request body
// through POST /v1/reason), JavaScript and TypeScript as programs.

export const docsUrl = 'http://127.0.0.1:8787';

export interface LocalValve {
  url: string;
  key: string;
  adminToken: string;
  /** An API key's id the docs' `key_…` placeholder stands for (revoking it harms nothing). */
  spareKeyId: string;
}

/** What an example's last curl answered, for the JSON example that shows it. */
export interface Answer {
  status: number;
  json?: unknown;
}

export type Kind = 'shell' | 'json' | 'script';

export function kindOf(block: FencedBlock): Kind | undefined {
  if (['sh', 'bash', 'shell', 'console'].includes(block.lang)) return 'shell';
  if (['json', 'jsonc'].includes(block.lang)) return 'json';
  if (['js', 'javascript', 'mjs', 'ts', 'typescript'].includes(block.lang)) return 'script';
  return undefined;
}

export function placeholdersOf(valve: LocalValve): Placeholders {
  return {
    docsUrl,
    url: valve.url,
    vars: { VALVE_KEY: valve.key, ADMIN_TOKEN: valve.adminToken },
    substitutions: {
      'cat .wrangler/valve/dev-api-key': valve.key,
      'grep ^ADMIN_TOKEN= .dev.vars | cut -d= -f2-': valve.adminToken,
    },
    literals: { 'key_…': valve.spareKeyId },
  };
}

/** A schema that checks only what an abridged example shows: every `required` dropped. */
function withoutRequired(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutRequired);
  if (schema === null || typeof schema !== 'object') return schema;
  return Object.fromEntries(
    Object.entries(schema)
      .filter(([key, value]) => !(key === 'required' && Array.isArray(value)))
      .map(([key, value]) => [
        key,
        key === 'properties' ? mapValues(value, withoutRequired) : withoutRequired(value),
      ]),
  );
}

function mapValues(value: unknown, f: (v: unknown) => unknown): unknown {
  return Object.fromEntries(Object.entries(value as object).map(([k, v]) => [k, f(v)]));
}

const schemas = {
  request: requestSchema,
  answer: responseSchema,
  error: errorSchema,
  catalog: catalogSchema,
};
type BodyKind = keyof typeof schemas;

function validator(kind: BodyKind, abridged: boolean): Validator {
  const schema = abridged ? withoutRequired(schemas[kind]) : schemas[kind];
  return new Validator(schema as object, '2020-12', false);
}

function schemaProblems(kind: BodyKind, value: unknown, abridged: boolean): string[] {
  const result = validator(kind, abridged).validate(value);
  return result.valid
    ? []
    : result.errors.map((e) => `not a valid ${kind}: ${e.instanceLocation} ${e.error}`);
}

/** The value without the `"…"` items and members an abridged example stands in for. */
function unabridged(value: unknown): unknown {
  if (Array.isArray(value)) return value.filter((item) => item !== '…').map(unabridged);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key, v]) => key !== '…' && v !== '…')
      .map(([k, v]) => [k, unabridged(v)]),
  );
}

function bodyKind(value: Record<string, unknown>): BodyKind | undefined {
  const keys = Object.keys(value);
  if (keys.length === 1 && keys[0] === 'error') return 'error';
  if (['receiptId', 'finishReason', 'decision', 'receipt', 'costUsd'].some((k) => k in value))
    return 'answer';
  if (['task', 'instructions', 'context', 'modelPolicy'].some((k) => k in value)) return 'request';
  if ('providers' in value || 'models' in value) return 'catalog';
  return undefined;
}

/** Every member path of a value (`decision.plan[].provider`), for comparing an example with an answer. */
function memberPaths(value: unknown, prefix = '', into = new Set<string>()): Set<string> {
  if (Array.isArray(value)) {
    for (const item of value) memberPaths(item, `${prefix}[]`, into);
  } else if (value !== null && typeof value === 'object') {
    for (const [key, v] of Object.entries(value)) {
      const path = prefix === '' ? key : `${prefix}.${key}`;
      into.add(path);
      memberPaths(v, path, into);
    }
  }
  return into;
}

async function postReason(valve: LocalValve, body: unknown): Promise<string[]> {
  const res = await fetch(`${valve.url}/v1/reason`, {
    method: 'POST',
    headers: { authorization: `Bearer ${valve.key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const answer = await res.json();
  if (res.status !== 200) return [`POST /v1/reason answered ${res.status}: ${JSON.stringify(answer)}`];
  return schemaProblems('answer', answer, false);
}

/** A JSON example: valid against its schema; a whole request answered by Valve; an answer like the real one. */
export async function runJson(block: FencedBlock, valve: LocalValve, previous?: Answer): Promise<string[]> {
  let value: unknown;
  let fragment = false;
  try {
    value = JSON.parse(block.text);
  } catch {
    try {
      value = JSON.parse(`{${block.text}}`);
      fragment = true;
    } catch (error) {
      return [`not JSON, nor the members of an object: ${(error as Error).message}`];
    }
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return ['not a JSON object'];
  const kind = bodyKind(value as Record<string, unknown>);
  if (kind === undefined) return ['not a request, answer, error body or catalog: mark it not run, with why'];
  const abridged = fragment || block.text.includes('…');
  const shown = unabridged(value);
  const problems = schemaProblems(kind, shown, abridged);
  if (kind === 'error') {
    const error = (shown as { error: { code?: string; category?: string } }).error;
    const code = error.code ?? '';
    if (!registeredErrorCodes().includes(code)) problems.push(`error code ${code} is not registered`);
    else if (error.category !== undefined && error.category !== lookupErrorCode(code).category) {
      problems.push(`category of ${code} should be ${lookupErrorCode(code).category}`);
    }
  }
  if (kind === 'request' && !abridged && problems.length === 0)
    problems.push(...(await postReason(valve, shown)));
  if ((kind === 'answer' || kind === 'error') && previous?.json !== undefined) {
    // The answer of the curl example just above: each member it shows, the real answer has.
    const real = memberPaths(previous.json);
    for (const path of memberPaths(shown)) {
      if (!real.has(path)) problems.push(`shows ${path}, which the answer of the command above has not`);
    }
  }
  return problems;
}

/**
 * The commands of a console session: each line after a `$ ` prompt, with the lines it runs on to (a
 * `\` at the end, or a single quote still open); the rest is output.
 */
function consoleCommands(session: string): string {
  const commands: string[] = [];
  let open = false;
  for (const line of session.split('\n')) {
    if (!open && !line.startsWith('$ ')) continue;
    const text: string = open ? line : line.slice(2);
    commands.push(text);
    const quotes = commands.join('\n').split("'").length - 1;
    open = /\\$/.test(text) || quotes % 2 === 1;
  }
  return commands.join('\n');
}

/** A shell example: every command a curl to the local Valve that answers as the docs say. */
export async function runShell(
  block: FencedBlock,
  valve: LocalValve,
): Promise<{ problems: string[]; answer?: Answer }> {
  const placeholders = placeholdersOf(valve);
  const script = block.lang === 'console' ? consoleCommands(block.text) : block.text;
  let answer: Answer | undefined;
  try {
    const commands = parseShell(script, placeholders);
    if (commands.length === 0) return { problems: ['has no command to run'] };
    const problems: string[] = [];
    for (const command of commands) {
      const request = curlRequest(command.argv, placeholders);
      const res = await fetch(request.url, request);
      const type = res.headers.get('content-type') ?? '';
      const text = await res.text();
      const what = `${request.method} ${request.url.slice(valve.url.length)}`;
      const expected = command.expectStatus;
      if (expected !== undefined ? res.status !== expected : res.status < 200 || res.status > 299) {
        problems.push(`${what} answered ${res.status}: ${text.slice(0, 300)}`);
        continue;
      }
      answer = { status: res.status };
      if (type.startsWith('text/event-stream')) {
        const events = [...text.matchAll(/^event: (\S+)$/gm)].map((m) => m[1]);
        if (events.at(-1) !== 'response.completed')
          problems.push(`${what} ended its stream with ${events.at(-1)}`);
        const shown = [...block.text.matchAll(/^event: (\S+)$/gm)].map((m) => m[1]);
        for (const event of shown)
          if (!events.includes(event)) problems.push(`${what} sent no ${event} event`);
        continue;
      }
      if (!type.startsWith('application/json')) continue;
      answer.json = JSON.parse(text);
      const path = new URL(request.url).pathname;
      if (res.status >= 400) problems.push(...schemaProblems('error', answer.json, false));
      else if (path === '/v1/reason') problems.push(...schemaProblems('answer', answer.json, false));
    }
    return { problems, answer };
  } catch (error) {
    if (isNotRunnable(error)) {
      return { problems: [`cannot run here (${error.message}): mark it <!-- not run: why -->`] };
    }
    throw error;
  }
}

const scriptsDir = join(repoRoot, '.cache/docs-examples');

/** A JavaScript or TypeScript example, run by Node from inside the repository (so its imports resolve). */
export async function runScript(block: FencedBlock, name: string, valve: LocalValve): Promise<string[]> {
  mkdirSync(scriptsDir, { recursive: true });
  const source = block.text.replaceAll(docsUrl, valve.url);
  const file = join(scriptsDir, `${name}.mjs`);
  if (block.lang === 'ts' || block.lang === 'typescript') {
    await build({
      stdin: { contents: source, loader: 'ts', resolveDir: repoRoot, sourcefile: `${name}.ts` },
      bundle: true,
      packages: 'external',
      alias: { 'valve/client': './src/client.ts' },
      format: 'esm',
      platform: 'node',
      outfile: file,
      logLevel: 'silent',
    });
  } else {
    writeFileSync(file, source);
  }
  // Spawned, not spawnSync: a blocked event loop misses the server closing this process's idle
  // keep-alive sockets, and the next example's fetch then reuses a closed one ("other side closed").
  const run = await new Promise<{ status: number | null; signal: string | null; stderr: string }>(
    (resolve, reject) => {
      const child = spawn(process.execPath, [file], {
        cwd: repoRoot,
        timeout: 60_000,
        env: { ...process.env, VALVE_KEY: valve.key },
      });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString('utf8');
      });
      child.stdout.resume();
      child.on('error', reject);
      child.on('close', (status, signal) => resolve({ status, signal, stderr }));
    },
  );
  if (run.status === 0) return [];
  return [`exited ${run.status ?? run.signal}: ${run.stderr.slice(0, 1000)}`];
}
