import { Hono } from 'hono';
import { reasonRequestSchema } from '../contracts/reason-request';
import type { AppEnv } from '../env';
import { ApiError } from '../errors';
import { readHealth, viewOrNone } from '../health/health-client';
import { healthStubOf } from '../health/health-stub';
import type { Observation } from '../health/health-types';
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
import { type Admission, runReason } from '../reason/run-reason';
import { usageOfFailure, usageOfResponse } from '../reason/to-usage-record';
import { committedRequestProblems } from '../receipts/receipt-fields';
import { releaseClaim } from '../storage/receipts';
import { insertUsageRecord } from '../storage/usage-records';
import { runInBackground } from './run-in-background';

export const reasonRoutes = new Hono<AppEnv>().post(
  '/reason',
  requireKey('reason'),
  rateLimit,
  rejectDuplicateKeys,
  requireJson,
  validJson(reasonRequestSchema),
  async (c) => {
    const startedAt = performance.now();
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
    try {
      const response = await runReason(request, {
        catalog,
        issueReceipt: receiptHookFor(c.env, caller.tenant),
        notConfigured: configuredProviders(catalog, (name) => env[name]),
        secret: (name) =>
          typeof env[name] === 'string' && env[name] !== '' ? (env[name] as string) : undefined,
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
      });
      // Usage and health are written after the answer, off the response path.
      runInBackground(c, () =>
        insertUsageRecord(c.env.DB, usageOfResponse(caller, response, false, arrivedAt)),
      );
      return c.json(response);
    } catch (error) {
      if (receiptId !== undefined) await releaseClaim(c.env.DB, caller.tenant, receiptId);
      const latencyMs = performance.now() - startedAt;
      runInBackground(c, () =>
        insertUsageRecord(c.env.DB, usageOfFailure(caller, error, latencyMs, false, arrivedAt)),
      );
      throw error;
    } finally {
      if (observations.length > 0) runInBackground(c, async () => health.record(observations));
    }
  },
);
