import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { chatRequestSchema } from '../../../src/doors/openai/chat-request';
import { chatToReason } from '../../../src/doors/openai/chat-to-reason';
import { responsesRequestSchema } from '../../../src/doors/openai/responses-request';
import { responsesToReason } from '../../../src/doors/openai/responses-to-reason';
import { type RunningValve, startValve } from '../helpers/start-valve';
import { runCli } from '../receipts/run-cli';

// The OpenAI clients' harness: one worker with simulator models (one that answers, one whose stream
// is cut mid-answer, two that fail), and a fetch the clients are given that records every exchange
// on the wire. The records count the requests that reach Valve (for the SDKs' retries), and give an
// auditor's inputs: the OpenAI body as sent, from which the documented mapping derives the Reason
// request, and the signed Reason response in the answer's `valve` extension.

const sim = (model: string, quality: number, simulate: Record<string, unknown> = {}, provider = 'sim') => ({
  provider,
  model,
  regions: ['lab'],
  priceUsdPerMTok: { input: 1, output: 4 },
  quality,
  latency: { ttftMsP50: 40, ttftMsP90: 80, outputTokensPerSec: 400 },
  contextTokens: 32_000,
  maxOutputTokens: 4096,
  capabilities: { tools: true, json: 'native', reasoning: false, base64Data: false },
  maxPrivacy: 'confidential',
  simulate,
});

export const doorCatalog = {
  // A bad key opens the circuit of its whole provider: that model has a provider of its own.
  providers: [
    { id: 'sim', kind: 'sim' },
    { id: 'keyless', kind: 'sim' },
  ],
  models: [
    sim('answer', 90),
    sim('cut', 10, { failAfterChunks: 2 }),
    sim('badkey', 10, { failWith: 'auth' }, 'keyless'),
    sim('busy', 10, { failWith: 'overloaded' }),
  ],
};

export interface Exchange {
  path: string;
  body: unknown;
  status: number;
  text: Promise<string>;
}

export interface Door {
  valve: RunningValve;
  baseURL: string;
  /** The fetch to give a client: the real fetch, recorded. */
  fetch: typeof fetch;
  exchanges: Exchange[];
  /** Requests that reached Valve on a path since the last `reset`. */
  count: (path: string) => number;
  reset: () => void;
  dir: string;
  stop: () => Promise<void>;
}

/** A local Valve serving `catalog` (the door's own by default), with any extra variables (provider keys). */
export async function startDoor(
  catalog: unknown = doorCatalog,
  vars?: Record<string, string>,
): Promise<Door> {
  const valve = await startValve({ catalog, vars });
  const dir = mkdtempSync(join(tmpdir(), 'valve-door-'));
  const root = await (await fetch(`${valve.url}/v1/trust-root`)).json();
  writeFileSync(join(dir, 'root.json'), JSON.stringify(root));
  const exchanges: Exchange[] = [];
  const recording: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    const sent = await request.clone().text();
    const res = await fetch(request);
    exchanges.push({
      path: new URL(request.url).pathname,
      body: sent === '' ? undefined : JSON.parse(sent),
      status: res.status,
      text: res.clone().text(),
    });
    return res;
  };
  return {
    valve,
    baseURL: `${valve.url}/openai/v1`,
    fetch: recording,
    exchanges,
    count: (path) => exchanges.filter((e) => e.path === path).length,
    reset: () => {
      exchanges.length = 0;
    },
    dir,
    stop: async () => {
      await valve.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The `valve` extension of a JSON answer, or of the last stream frame that carries one. */
export function valveOf(text: string): { receiptId: string } & Record<string, unknown> {
  if (!text.startsWith('data:') && !text.startsWith('event:'))
    return (JSON.parse(text) as { valve: never }).valve;
  const frames = text
    .split('\n')
    .filter((line) => line.startsWith('data: ') && line !== 'data: [DONE]')
    .map((line) => JSON.parse(line.slice(6)) as { valve?: never; response?: { valve?: never } });
  const found = frames.map((f) => f.valve ?? f.response?.valve).filter((v) => v !== undefined);
  expect(found.length, 'a frame carries the valve extension').toBeGreaterThan(0);
  return found.at(-1) as never;
}

/** The exchange whose answer carries this receipt id. */
export async function exchangeOf(door: Door, receiptId: string): Promise<Exchange & { answer: string }> {
  for (const exchange of door.exchanges) {
    const answer = await exchange.text;
    if (exchange.status === 200 && answer.includes(receiptId)) return { ...exchange, answer };
  }
  throw new Error(`no exchange carries ${receiptId}`);
}

/** What an auditor does: derive the Reason request from the body sent, disclose, verify offline. */
export async function expectReceiptVerifies(door: Door, receiptId: string): Promise<void> {
  const exchange = await exchangeOf(door, receiptId);
  const derived = exchange.path.endsWith('/responses')
    ? responsesToReason(responsesRequestSchema.parse(exchange.body)).request
    : chatToReason(chatRequestSchema.parse(exchange.body)).request;
  const response = valveOf(exchange.answer);
  expect(response.receiptId).toBe(receiptId);
  const file = (name: string) => join(door.dir, `${receiptId}-${name}`);
  writeFileSync(file('request.json'), JSON.stringify(derived));
  writeFileSync(file('response.json'), JSON.stringify(response));
  const disclosed = await runCli([
    'disclose',
    '--request',
    file('request.json'),
    '--response',
    file('response.json'),
    '--out',
    file('bundle.json'),
  ]);
  expect(disclosed.code, disclosed.stderr).toBe(0);
  const verified = await runCli([
    'verify',
    file('bundle.json'),
    '--trust-root',
    join(door.dir, 'root.json'),
    '--no-state',
  ]);
  expect(verified.stdout).toContain('VERIFIED');
  expect(verified.code, verified.stdout).toBe(0);
}

/** The receipt id inside an OpenAI id (`chatcmpl-<id>`, `resp_<id>`). */
export function receiptIdOf(openaiId: string | undefined): string {
  const match = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/.exec(openaiId ?? '');
  expect(match, `an id carrying a receipt id: ${openaiId}`).not.toBeNull();
  return (match as RegExpExecArray)[1] as string;
}
