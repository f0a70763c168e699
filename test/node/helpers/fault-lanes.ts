import { expect } from 'vitest';
import { minStallMs } from '../../../src/policy/stall-limit';
import {
  type Behaviour,
  type FakeUpstream,
  fixture,
  startFakeUpstream,
} from '../fake-upstream/fake-upstream';
import { type RunningValve, type StartValveOptions, startValve } from './start-valve';

// The fault tests' harness. One worker per test file, and in it one *lane* per test: a primary
// (OpenAI wire format) and a backup (Anthropic wire format), both pointed at the fake upstream, in a
// region of their own. A request names its lane's region, so it plans exactly those two models, and
// the circuits one test opens (three failures in a row, a bad key) never leak into another test.

export const maxLatencyMs = 2500;
/** Output wanted: keeps a JSON call's expected silence (and so its idle limit) at the floor. */
export const maxOutputTokens = 256;
/** Time outside the budget: the client's round trip to the worker and the worker's own work. */
export const overheadMs = 400;
/** Scheduling slack for upper bounds on a shared 2-core machine; lower bounds get none. */
export const slackMs = 500;
/** The idle limit every primary gets in these tests (policy/stall-limit: its floor). */
export const idleMs = minStallMs;

export interface Lane {
  name: string;
  primary: string;
  backup: string;
}

const model = (
  provider: string,
  name: string,
  region: string,
  quality: number,
  contextTokens: number,
  price: [number, number],
) => ({
  provider,
  model: name,
  regions: [region],
  priceUsdPerMTok: { input: price[0], output: price[1] },
  quality,
  latency: { ttftMsP50: 50, ttftMsP90: 100, outputTokensPerSec: 5000 },
  contextTokens,
  maxOutputTokens: 4096,
  capabilities: { tools: true, json: 'native', reasoning: false, base64Data: false },
  maxPrivacy: 'confidential',
});

export interface LaneOptions {
  /** The backup's context window (default 200 000, larger than the primary's 32 000). */
  backupContextTokens?: number;
}

export function laneOf(name: string): Lane {
  return { name, primary: `${name}-primary`, backup: `${name}-backup` };
}

function catalogOf(lanes: Record<string, LaneOptions>) {
  const providers: unknown[] = [];
  const models: unknown[] = [];
  for (const [name, options] of Object.entries(lanes)) {
    const lane = laneOf(name);
    providers.push(
      {
        id: lane.primary,
        kind: 'openai',
        baseUrl: `UPSTREAM/${lane.primary}/v1`,
        apiKeyEnv: 'OPENAI_API_KEY',
      },
      {
        id: lane.backup,
        kind: 'anthropic',
        baseUrl: `UPSTREAM/${lane.backup}/v1`,
        apiKeyEnv: 'ANTHROPIC_API_KEY',
      },
    );
    models.push(
      model(lane.primary, 'gpt-test', name, 90, 32_000, [1, 2]),
      model(lane.backup, 'claude-test', name, 80, options.backupContextTokens ?? 200_000, [3, 15]),
    );
  }
  return { providers, models };
}

export interface Harness {
  upstream: FakeUpstream;
  valve: RunningValve;
  stop: () => Promise<void>;
}

/** Starts the fake upstream and one worker whose catalog holds the given lanes. */
export async function startHarness(
  lanes: Record<string, LaneOptions>,
  vars: StartValveOptions['vars'] = {},
): Promise<Harness> {
  const upstream = await startFakeUpstream();
  const catalog = JSON.parse(
    JSON.stringify(catalogOf(lanes)).replaceAll('UPSTREAM', upstream.url),
  ) as unknown;
  let valve: RunningValve;
  try {
    valve = await startValve({
      catalog,
      vars: { OPENAI_API_KEY: 'test-openai', ANTHROPIC_API_KEY: 'test-anthropic', ...vars },
    });
  } catch (error) {
    await upstream.close();
    throw error;
  }
  return {
    upstream,
    valve,
    stop: async () => {
      await valve.stop();
      await upstream.close();
    },
  };
}

export interface Usage {
  inputTokens: number;
  outputTokens: number;
  reasoningTokens: number;
  cacheReadTokens: number;
}

export interface TracedAttempt {
  provider: string;
  model: string;
  outcome: 'ok' | 'error' | 'skipped';
  errorKind?: string;
  latencyMs: number;
  costUsd: number;
  usage?: Usage;
  retry?: number;
  reason?: string;
  detail?: string;
}

export interface Decision {
  plan: { provider: string; model: string; worstCaseUsd?: number }[];
  excluded: { provider: string; model: string; reason: string }[];
  attempts: TracedAttempt[];
}

export interface ReasonResult {
  status: number;
  json: {
    model?: { provider: string; model: string };
    output?: { format: string; text?: string };
    finishReason?: string;
    costUsd?: number;
    usage?: Usage;
    decision?: Decision;
    error?: { code: string; details?: { decision?: Decision; kind?: string } & Record<string, unknown> };
  };
  /** The client's view of the whole request. */
  ms: number;
}

/** POST /v1/reason for a lane: the lane's region only, maxLatencyMs of 2.5 s, 256 output tokens. */
export async function reason(harness: Harness, lane: Lane): Promise<ReasonResult> {
  const began = performance.now();
  const res = await fetch(`${harness.valve.url}/v1/reason`, {
    method: 'POST',
    headers: { authorization: `Bearer ${harness.valve.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      task: 'summarize',
      instructions: 'Summarize the ticket in one sentence.',
      context: [{ trust: 'untrusted', privacy: 'internal', content: 'The printer is on fire.' }],
      modelPolicy: { maxLatencyMs, maxOutputTokens, regions: [lane.name] },
    }),
  });
  const json = (await res.json()) as ReasonResult['json'];
  return { status: res.status, json, ms: performance.now() - began };
}

/** The decision trace of an answer or of an error. */
export function decisionOf(result: ReasonResult): Decision {
  const decision = result.json.decision ?? result.json.error?.details?.decision;
  expect(decision, 'the response carries its decision trace').toBeDefined();
  return decision as Decision;
}

/** The gaps between consecutive requests a route received, in ms. */
export function gapsOn(harness: Harness, route: string): number[] {
  const times = harness.upstream.arrivals(route).map((arrival) => arrival.at);
  return times.slice(1).map((at, i) => at - (times[i] as number));
}

export function arrivalsOn(harness: Harness, route: string): number {
  return harness.upstream.arrivals(route).length;
}

/** The jittered backoff before retry `n` (0-based): half fixed, half random, of 200 ms × 2ⁿ (decide-retry.ts). */
export function backoffBounds(n: number): [number, number] {
  const step = 200 * 2 ** n;
  return [step / 2, step];
}

/** Each gap lies within [low, high + slack]: never sooner than asked, never a tight loop. */
export function expectGaps(gaps: number[], bounds: [number, number][]) {
  expect(gaps).toHaveLength(bounds.length);
  gaps.forEach((gap, i) => {
    const [low, high] = bounds[i] as [number, number];
    expect(gap, `gap ${i}`).toBeGreaterThanOrEqual(low);
    expect(gap, `gap ${i}`).toBeLessThanOrEqual(high + slackMs);
  });
}

export const primaryAnswer = '**Holiday Name:** Galaxy Day';
export const backupAnswer = 'Hello!';
/** Usage and cost of the recorded fixtures at the lane's prices. */
export const primaryUsage: Usage = {
  inputTokens: 16,
  outputTokens: 363,
  reasoningTokens: 0,
  cacheReadTokens: 0,
};
export const primaryCost = (16 * 1 + 363 * 2) / 1e6;
export const backupUsage: Usage = {
  inputTokens: 10,
  outputTokens: 5,
  reasoningTokens: 0,
  cacheReadTokens: 0,
};
export const backupCost = (10 * 3 + 5 * 15) / 1e6;
export const noUsage: Usage = { inputTokens: 0, outputTokens: 0, reasoningTokens: 0, cacheReadTokens: 0 };

/**
 * What every answer must show: 200, the model that answered, its text, within maxLatencyMs, every
 * attempt's cost summing to the response's, and usage on every attempt whose usage is known.
 */
export function expectAnswered(result: ReasonResult, lane: Lane, by: 'primary' | 'backup') {
  expect(result.status, JSON.stringify(result.json.error)).toBe(200);
  const decision = decisionOf(result);
  const provider = by === 'primary' ? lane.primary : lane.backup;
  expect(result.json.model).toMatchObject({ provider, model: by === 'primary' ? 'gpt-test' : 'claude-test' });
  expect(result.json.output).toEqual({
    format: 'text',
    text: by === 'primary' ? primaryAnswer : backupAnswer,
  });
  expect(result.json.usage).toEqual(by === 'primary' ? primaryUsage : backupUsage);
  const last = decision.attempts.at(-1);
  expect(last).toMatchObject({
    provider,
    outcome: 'ok',
    usage: by === 'primary' ? primaryUsage : backupUsage,
  });
  expect(last?.costUsd).toBeCloseTo(by === 'primary' ? primaryCost : backupCost, 12);
  const total = decision.attempts.reduce((sum, a) => sum + a.costUsd, 0);
  expect(result.json.costUsd).toBeCloseTo(total, 12);
  expect(result.ms).toBeLessThan(maxLatencyMs + overheadMs);
}

/** What every failure must show: the error kind, no output, the trace, within maxLatencyMs. */
export function expectFailed(result: ReasonResult, kind: string) {
  expect(result.json.error?.code).toBe(`model.${kind}`);
  expect(result.json.output).toBeUndefined();
  expect(result.json.model).toBeUndefined();
  decisionOf(result);
  expect(result.ms).toBeLessThan(maxLatencyMs + overheadMs);
}

/** The attempts on one provider, as [errorKind or outcome, retry]. */
export function attemptsOf(result: ReasonResult, provider: string): [string, number | undefined][] {
  return decisionOf(result)
    .attempts.filter((a) => a.provider === provider && a.outcome !== 'skipped')
    .map((a) => [a.errorKind ?? a.outcome, a.retry]);
}

export function scriptLane(harness: Harness, lane: Lane, primary: Behaviour[], backup?: Behaviour[]) {
  harness.upstream.script(lane.primary, primary);
  harness.upstream.script(lane.backup, backup ?? [{ type: 'json', body: fixture('anthropic/text.json') }]);
}

/** A model's circuit as GET /v1/models shows it (through the worker's short-lived health cache). */
export async function circuitOn(harness: Harness, provider: string): Promise<string | undefined> {
  const res = await fetch(`${harness.valve.url}/v1/models`, {
    headers: { authorization: `Bearer ${harness.valve.key}` },
  });
  const json = (await res.json()) as {
    providers: { provider: string; models: { health: { circuit: string } }[] }[];
  };
  return json.providers.find((p) => p.provider === provider)?.models[0]?.health.circuit;
}

/**
 * Polls GET /v1/models until the circuit is in `state`. Health is recorded off the response path and
 * read through a cache of a few seconds, so the wait is bounded by that, not by a fixed sleep.
 */
export async function waitForCircuit(harness: Harness, provider: string, state: string, withinMs = 5000) {
  const until = performance.now() + withinMs;
  let seen: string | undefined;
  while (performance.now() < until) {
    seen = await circuitOn(harness, provider);
    if (seen === state) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  expect(seen, `${provider}'s circuit`).toBe(state);
}
