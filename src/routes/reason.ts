import { Hono } from 'hono';
import { writeHealth, writeUsage } from '../background/write-behind';
import { reasonRequestSchema } from '../contracts/reason-request';
import type { AppEnv } from '../env';
import { readHealth, recordHealth, viewOrNone } from '../health/health-client';
import { healthStubOf } from '../health/health-stub';
import type { Observation } from '../health/health-types';
import { admitToBudget } from '../limits/admit-to-budget';
import { iJsonError, rejectDuplicateKeys } from '../middleware/i-json-body';
import { requireJson, validJson } from '../middleware/json-body';
import { rateLimit } from '../middleware/rate-limit';
import { requireKey } from '../middleware/require-key';
import { configuredProviders } from '../policy/configured-providers';
import { loadCatalog } from '../policy/load-catalog';
import { abortableSleep } from '../providers/abortable-sleep';
import { randomHex } from '../random-token';
import { claimReceiptId } from '../reason/idempotency';
import { receiptHookFor } from '../reason/receipt-hook';
import { runReason } from '../reason/run-reason';
import { usageOfFailure, usageOfResponse } from '../reason/to-usage-record';
import { committedRequestProblems } from '../receipts/receipt-fields';
import { releaseClaim } from '../storage/receipts';
import { runInBackground } from './run-in-background';

export const reasonRoutes = new Hono<AppEnv>().post(
  '/reason',
  requireKey('reason'),
  rateLimit,
  rejectDuplicateKeys,
  requireJson,
  validJson(reasonRequestSchema),
  async (c) => {
    const startedAt = c.var.arrivedAt ?? performance.now();
    const arrivedAt = Date.now();
    const caller = c.var.caller;
    const request = c.req.valid('json');
    const problems = committedRequestProblems(request);
    if (problems.length > 0) throw iJsonError(problems);
    const receiptId = request.receiptId;
    if (receiptId !== undefined) {
      const claim = await claimReceiptId(
        caller.tenant,
        { ...request, receiptId },
        { db: c.env.DB, now: Date.now, sleep: (ms) => new Promise((r) => setTimeout(r, ms)), waitMs: 30_000 },
      );
      if (claim.kind === 'replay')
        return c.json(claim.response as object, 200, { 'Idempotent-Replayed': 'true' });
    }
    const env = c.env as unknown as Record<string, unknown>;
    const catalog = loadCatalog(c.env.VALVE_CATALOG);
    const health = healthStubOf(c.env);
    const observations: Observation[] = [];
    const admit = admitToBudget(c.env, caller.tenant);
    const view = viewOrNone(await readHealth(health, Date.now()), Date.now());
    try {
      const response = await runReason(request, {
        catalog,
        issueReceipt: receiptHookFor(c.env, caller.tenant),
        notConfigured: configuredProviders(catalog, (name) => env[name]),
        secret: (name) =>
          typeof env[name] === 'string' && env[name] !== '' ? (env[name] as string) : undefined,
        binding: (name) => env[name],
        fetch: (input, init) => fetch(input, init),
        now: () => performance.now(),
        startedAt,
        randomHex,
        admit,
        health: view,
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
      });
      // Usage and health are written after the answer, off the response path.
      runInBackground(c, () => writeUsage(c.env.DB, usageOfResponse(caller, response, false, arrivedAt)));
      return c.json(response);
    } catch (error) {
      if (receiptId !== undefined) await releaseClaim(c.env.DB, caller.tenant, receiptId);
      const latencyMs = performance.now() - startedAt;
      runInBackground(c, () =>
        writeUsage(c.env.DB, usageOfFailure(caller, error, latencyMs, false, arrivedAt)),
      );
      throw error;
    } finally {
      // A failure, or the success of a model whose circuit was not closed, may move a circuit.
      const movesCircuit = observations.some(
        (o) =>
          !o.ok ||
          view.circuit(o.provider, o.model) !== 'closed' ||
          view.circuit(o.provider, '*') !== 'closed',
      );
      if (observations.length > 0) {
        runInBackground(c, () =>
          movesCircuit
            ? recordHealth(health, observations, true)
            : writeHealth(c.env.MODEL_HEALTH, health, observations),
        );
      }
    }
  },
);
