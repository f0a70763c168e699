import { Hono } from 'hono';
import { reasonRequestSchema } from '../contracts/reason-request';
import type { AppEnv } from '../env';
import { ApiError } from '../errors';
import { requireJson, validJson } from '../middleware/json-body';
import { rateLimit } from '../middleware/rate-limit';
import { requireKey } from '../middleware/require-key';
import { loadCatalog } from '../policy/load-catalog';
import { randomHex } from '../random-token';
import { runReason } from '../reason/run-reason';
import { usageOfFailure, usageOfResponse } from '../reason/to-usage-record';
import { insertUsageRecord, type UsageRecord } from '../storage/usage-records';

export const reasonRoutes = new Hono<AppEnv>().post(
  '/reason',
  requireKey('reason'),
  rateLimit,
  requireJson,
  validJson(reasonRequestSchema),
  async (c) => {
    const startedAt = performance.now();
    const arrivedAt = Date.now();
    const caller = c.var.caller;
    const env = c.env as unknown as Record<string, unknown>;
    // Usage is written after the answer, off the response path.
    const record = (usage: UsageRecord) =>
      c.executionCtx.waitUntil(
        insertUsageRecord(c.env.DB, usage).catch((error: unknown) =>
          console.error(
            JSON.stringify({
              level: 'error',
              requestId: c.var.requestId,
              what: 'usage record',
              error: String(error),
            }),
          ),
        ),
      );
    try {
      const response = await runReason(c.req.valid('json'), {
        catalog: loadCatalog(c.env.VALVE_CATALOG),
        secret: (name) =>
          typeof env[name] === 'string' && env[name] !== '' ? (env[name] as string) : undefined,
        fetch: (input, init) => fetch(input, init),
        now: () => performance.now(),
        startedAt,
        randomHex,
        admit: async (wantedUsd, minimumUsd) => {
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
        },
      });
      record(usageOfResponse(caller, response, false, arrivedAt));
      return c.json(response);
    } catch (error) {
      record(usageOfFailure(caller, error, performance.now() - startedAt, false, arrivedAt));
      throw error;
    }
  },
);
