import { type Context, Hono } from 'hono';
import type { ReasonRequest } from '../contracts/reason-request';
import { reasonRequestSchema } from '../contracts/reason-request';
import type { AppEnv } from '../env';
import { ApiError } from '../errors';
import { readHealth, viewOrNone } from '../health/health-client';
import { healthStubOf } from '../health/health-stub';
import type { Observation } from '../health/health-types';
import { requireJson, validJson } from '../middleware/json-body';
import { rateLimit } from '../middleware/rate-limit';
import { requireKey } from '../middleware/require-key';
import { configuredProviders } from '../policy/configured-providers';
import { loadCatalog } from '../policy/load-catalog';
import { abortableSleep } from '../providers/abortable-sleep';
import { randomHex } from '../random-token';
import { prepareReason } from '../reason/prepare-reason';
import { type Admission, type ReasonDeps, runReason } from '../reason/run-reason';
import { streamReason } from '../reason/stream-reason';
import { usageOfFailure, usageOfResponse } from '../reason/to-usage-record';
import { insertUsageRecord } from '../storage/usage-records';
import { acceptsJson, framingFor } from '../streaming/frame-event';
import { runInBackground } from './run-in-background';
import { endOf, streamResponse } from './stream-response';

/** The pipeline's dependencies in this Worker: catalog, secrets, tenant budget, shared health. */
async function depsOf(
  c: Context<AppEnv>,
  startedAt: number,
  observations: Observation[],
): Promise<ReasonDeps> {
  const caller = c.var.caller;
  const env = c.env as unknown as Record<string, unknown>;
  const catalog = loadCatalog(c.env.VALVE_CATALOG);
  const health = healthStubOf(c.env);
  const admit = async (wantedUsd: number, minimumUsd: number): Promise<Admission> => {
    const budget = c.env.TENANT_BUDGET.getByName(caller.tenant);
    const reservation = await budget.reserve(wantedUsd, minimumUsd);
    if (!reservation.ok) {
      throw new ApiError('limit.budget_exhausted', 'The tenant’s monthly spend cap is reached.', {
        details: {
          capUsd: reservation.capUsd,
          spentUsd: reservation.spentUsd,
          reservedUsd: reservation.reservedUsd,
        },
      });
    }
    return {
      budgetUsd: reservation.amountUsd,
      settle: (actualUsd) => budget.settle(reservation.id, actualUsd),
    };
  };
  return {
    catalog,
    notConfigured: configuredProviders(catalog, (name) => env[name]),
    secret: (name) => (typeof env[name] === 'string' && env[name] !== '' ? (env[name] as string) : undefined),
    fetch: (input, init) => fetch(input, init),
    now: () => performance.now(),
    startedAt,
    randomHex,
    admit,
    health: viewOrNone(await readHealth(health, Date.now())),
    claimProbe: async (attempt) => {
      try {
        return await health.claimProbe(attempt.provider, attempt.model);
      } catch {
        return false;
      }
    },
    observe: (observation) => observations.push(observation),
    sleep: abortableSleep,
    random: Math.random,
  };
}

export const reasonRoutes = new Hono<AppEnv>().post(
  '/reason',
  requireKey('reason'),
  rateLimit,
  requireJson,
  validJson(reasonRequestSchema),
  async (c) => {
    const accept = c.req.header('Accept');
    const framing = framingFor(accept);
    if (!framing && !acceptsJson(accept)) {
      throw new ApiError(
        'request.not_acceptable',
        'POST /v1/reason answers application/json, text/event-stream or application/x-ndjson.',
      );
    }
    const startedAt = performance.now();
    const arrivedAt = Date.now();
    const caller = c.var.caller;
    const observations: Observation[] = [];
    const health = healthStubOf(c.env);
    const deps = await depsOf(c, startedAt, observations);
    const request: ReasonRequest = c.req.valid('json');
    const recordFailure = (error: unknown) => {
      const latencyMs = performance.now() - startedAt;
      runInBackground(c, () =>
        insertUsageRecord(
          c.env.DB,
          usageOfFailure(caller, error, latencyMs, framing !== undefined, arrivedAt),
        ),
      );
    };
    const recordHealth = () => {
      if (observations.length > 0) runInBackground(c, async () => health.record(observations));
    };
    if (framing) {
      let prepared: Awaited<ReturnType<typeof prepareReason>>;
      try {
        // Planning and admission errors are still plain HTTP errors: nothing has been streamed yet.
        prepared = await prepareReason(request, deps);
      } catch (error) {
        recordFailure(error);
        throw error;
      }
      const abort = new AbortController();
      let ended: () => void = () => undefined;
      // Keeps the request's background work alive until the stream's terminal event.
      runInBackground(c, () => new Promise<void>((resolve) => (ended = resolve)));
      const events = streamReason(prepared, deps, {
        requestId: c.var.requestId,
        signal: abort.signal,
        onEnd: (event) => {
          recordHealth();
          const end = endOf(event);
          if (end && 'response' in end) {
            const record = usageOfResponse(caller, end.response, true, arrivedAt);
            runInBackground(c, () => insertUsageRecord(c.env.DB, record));
          } else if (end) recordFailure(end.error);
          ended();
        },
      });
      // Typed as `never` so the typed client keeps reading the JSON answer's type.
      return streamResponse(events, framing, abort, { 'X-Request-Id': c.var.requestId }) as never;
    }
    try {
      const response = await runReason(request, deps);
      // Usage and health are written after the answer, off the response path.
      runInBackground(c, () =>
        insertUsageRecord(c.env.DB, usageOfResponse(caller, response, false, arrivedAt)),
      );
      return c.json(response);
    } catch (error) {
      recordFailure(error);
      throw error;
    } finally {
      recordHealth();
    }
  },
);
