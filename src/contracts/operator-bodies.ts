import { z } from 'zod';
import { queryInteger, queryList, queryText } from './query-params';
import { scopes } from './scopes';
import { isUsageBound, usageBoundMessage } from './usage-bound';
import { onTheWire } from './wire-schema';

// Bodies of the operator endpoints: health, keys, budgets, audit, usage.

export const healthBodySchema = z.strictObject({
  status: z.literal('ok'),
  version: z.string(),
  /** This isolate's writes behind the answer that failed (src/background/write-with-retries.ts). */
  writeBehind: z.strictObject({
    retriedBatches: z.number().int().min(0),
    lostReceipts: z.number().int().min(0),
    lostUsageRecords: z.number().int().min(0),
  }),
});

/** A tenant's name, as every key, budget and usage record writes it. */
export const tenantPattern = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
export const tenantMessage = 'must be 1–64 characters of A–Z, a–z, 0–9, _ . -';

export const tenantSchema = z.string().regex(tenantPattern, tenantMessage);

export const createKeySchema = z.strictObject({
  tenant: tenantSchema,
  scopes: z.array(z.enum(scopes)).min(1).max(scopes.length),
  /** Requests per minute for this key; the deployment default (DEFAULT_RATE_LIMIT_PER_MINUTE) when absent. */
  rateLimitPerMinute: z.number().int().min(1).max(1_000_000).optional(),
});

export const createdKeySchema = z.strictObject({
  id: z.string(),
  key: z.string(),
  tenant: z.string(),
  scopes: z.array(z.enum(scopes)),
  rateLimitPerMinute: z.number().int().nullable(),
});
export type CreatedKey = z.infer<typeof createdKeySchema>;

export const revokedKeySchema = z.strictObject({
  id: z.string(),
  tenant: z.string(),
  revoked: z.literal(true),
  revokedAt: z.number().int().nullable(),
});
export type RevokedKey = z.infer<typeof revokedKeySchema>;

export const budgetChangeSchema = z.strictObject({
  /** The tenant's monthly spend cap in USD; null removes the cap. */
  monthlyCapUsd: z.number().min(0).max(1e9).nullable(),
});

export const budgetStatusSchema = z.strictObject({
  tenant: z.string(),
  month: z.string(),
  capUsd: z.number().nullable(),
  spentUsd: z.number(),
  reservedUsd: z.number(),
  remainingUsd: z.number().nullable(),
});
export type BudgetStatusBody = z.infer<typeof budgetStatusSchema>;

export const auditRecordSchema = z.strictObject({
  seq: z.number().int().min(1),
  at_ms: z.number().int().min(0),
  action: z.string().min(1),
  actor: z.string().optional(),
  subject: z.string().optional(),
  outcome: z.string().optional(),
  details: z.record(z.string(), z.unknown()).optional(),
  prev_hash: z.string().length(64),
  hash: z.string().length(64),
});

export const auditPageSchema = z.strictObject({
  records: z.array(auditRecordSchema),
  next: z.number().int().nullable(),
});
export type AuditPage = z.infer<typeof auditPageSchema>;

export const auditQuerySchema = z.strictObject({
  after: queryInteger(0).optional(),
  limit: queryInteger(1, 1000).optional(),
});

/** A UTC day or an RFC 3339 timestamp (JSON Schema's `date` and `date-time`); a day as `to` includes the whole day. */
export const usageBound = () =>
  onTheWire(queryText().refine(isUsageBound, usageBoundMessage), {
    type: 'string',
    anyOf: [{ format: 'date' }, { format: 'date-time' }],
  });

export const usageGroups = ['model', 'day'] as const;

export const usageQuerySchema = z.strictObject({
  from: usageBound().optional(),
  to: usageBound().optional(),
  groupBy: queryList(usageGroups).optional(),
});

export const usageTotals = {
  requests: z.number().int(),
  errors: z.number().int(),
  inputTokens: z.number().int(),
  outputTokens: z.number().int(),
  costUsd: z.number(),
};

export const usageBodySchema = z.strictObject({
  tenant: z.string(),
  from: z.string(),
  to: z.string(),
  groupBy: z.array(z.enum(usageGroups)),
  rows: z.array(
    z.strictObject({
      day: z.string().optional(),
      model: z.string().optional(),
      ...usageTotals,
      avgLatencyMs: z.number().int(),
      fallbacks: z.number().int(),
    }),
  ),
  totals: z.strictObject(usageTotals),
});
