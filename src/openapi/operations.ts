import { z } from 'zod';
import { discoverySchema } from '../contracts/discovery';
import {
  auditPageSchema,
  auditQuerySchema,
  budgetChangeSchema,
  budgetStatusSchema,
  createdKeySchema,
  createKeySchema,
  healthBodySchema,
  revokedKeySchema,
  tenantSchema,
  usageBodySchema,
  usageQuerySchema,
} from '../contracts/operator-bodies';
import { reasonRequestSchema } from '../contracts/reason-request';
import { type ReasonResponse, reasonResponseSchema } from '../contracts/reason-response';
import { buildDiscovery } from '../policy/build-discovery';
import { configuredProviders } from '../policy/configured-providers';
import { defaultCatalog } from '../policy/default-catalog';
import { anthropicOperations } from './anthropic-operations';
import { approvalOperations } from './approval-operations';
import { consoleOperations } from './console-operations';
import { openaiOperations } from './openai-operations';
import type { Operation } from './operation';
import { iJsonBody, pipelineErrors } from './pipeline-rules';
import { exampleReceipt, receiptOperations } from './receipt-operations';

const exampleReceiptId = '3f0e2a6c-5b1d-4c8e-9a7f-0123456789ab';

/** The Reason answer every example shares, the door's included. */
const reasonExample: ReasonResponse = {
  receiptId: exampleReceiptId,
  task: 'summarize',
  output: { format: 'text', text: 'The customer’s order #123 arrived broken.' },
  toolCalls: [],
  finishReason: 'stop',
  model: { provider: 'sim', model: 'fast', region: 'us' },
  usage: { inputTokens: 262, outputTokens: 20, reasoningTokens: 0, cacheReadTokens: 0 },
  costUsd: 0.0000342,
  latencyMs: 12,
  decision: {
    prefer: 'cost',
    plan: [{ provider: 'sim', model: 'fast', estCostUsd: 0.00043, estLatencyMs: 2600 }],
    excluded: [
      { provider: 'sim', model: 'deep', reason: 'cost', detail: 'worst case exceeds the budget left' },
    ],
    attempts: [{ provider: 'sim', model: 'fast', outcome: 'ok', latencyMs: 9, costUsd: 0.0000342 }],
  },
  warnings: [],
  receipt: exampleReceipt,
};

export const operations: Operation[] = [
  {
    method: 'get',
    path: '/health',
    summary: 'Liveness and version.',
    security: { kind: 'public' },
    status: 200,
    response: healthBodySchema,
    example: {
      response: {
        status: 'ok',
        version: '0.1.0',
        writeBehind: { retriedBatches: 0, lostReceipts: 0, lostUsageRecords: 0 },
      },
    },
  },
  {
    method: 'post',
    path: '/v1/reason',
    summary:
      'One Reason request: trust-separated prompt, a model chosen under the policy within one budget, a signed receipt.',
    security: { kind: 'key', scope: 'reason' },
    body: reasonRequestSchema,
    status: 200,
    response: reasonResponseSchema,
    bodyDescription: iJsonBody,
    streams: ['text/event-stream', 'application/x-ndjson'],
    errors: ['request.unsupported_media_type', 'request.not_acceptable', ...pipelineErrors],
    example: {
      body: {
        task: 'summarize',
        instructions: 'Summarize the customer message in one sentence.',
        context: [
          {
            label: 'message',
            trust: 'untrusted',
            privacy: 'internal',
            content: 'My order #123 arrived broken.',
          },
        ],
        modelPolicy: { prefer: 'cost', maxCostUsd: 0.01, maxLatencyMs: 5000 },
        receiptId: exampleReceiptId,
      },
      response: reasonExample,
    },
  },
  {
    method: 'get',
    path: '/v1/models',
    summary:
      'Discovery: the catalog with capabilities as support levels, regions, prices, configuration and live health.',
    security: { kind: 'key' },
    status: 200,
    response: discoverySchema,
    example: {
      // The real document of the default catalog on a fresh deployment (no keys, no health yet).
      response: buildDiscovery({
        catalog: defaultCatalog,
        notConfigured: configuredProviders(defaultCatalog, () => undefined),
        health: undefined,
        version: '0.1.0',
      }),
    },
  },
  {
    method: 'get',
    path: '/v1/usage',
    summary:
      'Usage of the key’s tenant, aggregated by model and day, with cost, from `from` (default: 30 days ago) to `to` (default: today), `from` not after `to`.',
    security: { kind: 'key', scope: 'usage:read' },
    query: usageQuerySchema,
    status: 200,
    response: usageBodySchema,
    example: {
      response: {
        tenant: 'acme',
        from: '2026-11-01',
        to: '2026-11-30',
        groupBy: ['model', 'day'],
        rows: [
          {
            day: '2026-11-30',
            model: 'sim/fast',
            requests: 3,
            errors: 0,
            inputTokens: 790,
            outputTokens: 60,
            costUsd: 0.0001,
            avgLatencyMs: 11,
            fallbacks: 0,
          },
        ],
        totals: { requests: 3, errors: 0, inputTokens: 790, outputTokens: 60, costUsd: 0.0001 },
      },
    },
  },
  {
    method: 'post',
    path: '/v1/admin/keys',
    summary: 'Create an API key (the key is shown only in this answer).',
    security: { kind: 'admin' },
    body: createKeySchema,
    status: 201,
    errors: ['request.unsupported_media_type'],
    response: createdKeySchema,
    example: {
      body: { tenant: 'acme', scopes: ['reason', 'receipts:read'], rateLimitPerMinute: 120 },
      response: {
        id: 'key_0123456789abcdef',
        key: 'vk_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_AbCdE',
        tenant: 'acme',
        scopes: ['reason', 'receipts:read'],
        rateLimitPerMinute: 120,
      },
    },
  },
  {
    method: 'delete',
    path: '/v1/admin/keys/{id}',
    summary: 'Revoke an API key.',
    security: { kind: 'admin' },
    status: 200,
    response: revokedKeySchema,
    errors: ['request.not_found'],
    example: {
      response: { id: 'key_0123456789abcdef', tenant: 'acme', revoked: true, revokedAt: 1767225600123 },
    },
  },
  {
    method: 'get',
    path: '/v1/admin/tenants/{tenant}/budget',
    summary: 'A tenant’s monthly spend cap, spend and reservations.',
    security: { kind: 'admin' },
    params: z.strictObject({ tenant: tenantSchema }),
    status: 200,
    response: budgetStatusSchema,
    example: {
      response: {
        tenant: 'acme',
        month: '2026-12',
        capUsd: 50,
        spentUsd: 3.2,
        reservedUsd: 0.01,
        remainingUsd: 46.79,
      },
    },
  },
  {
    method: 'put',
    path: '/v1/admin/tenants/{tenant}/budget',
    summary: 'Set or remove a tenant’s monthly spend cap.',
    security: { kind: 'admin' },
    params: z.strictObject({ tenant: tenantSchema }),
    body: budgetChangeSchema,
    errors: ['request.unsupported_media_type'],
    status: 200,
    response: budgetStatusSchema,
    example: {
      body: { monthlyCapUsd: 50 },
      response: {
        tenant: 'acme',
        month: '2026-12',
        capUsd: 50,
        spentUsd: 3.2,
        reservedUsd: 0,
        remainingUsd: 46.8,
      },
    },
  },
  {
    method: 'get',
    path: '/v1/admin/audit',
    summary: 'The hash-chained audit trail of administrative actions.',
    security: { kind: 'admin' },
    query: auditQuerySchema,
    status: 200,
    response: auditPageSchema,
    example: {
      response: {
        records: [
          {
            seq: 1,
            at_ms: 1767225600123,
            action: 'key.created',
            actor: 'admin',
            subject: 'key_0123456789abcdef',
            outcome: 'ok',
            details: { tenant: 'acme' },
            prev_hash: 'b'.repeat(64),
            hash: 'c'.repeat(64),
          },
        ],
        next: null,
      },
    },
  },
  ...consoleOperations,
  ...receiptOperations,
  ...approvalOperations,
  ...openaiOperations(reasonExample),
  ...anthropicOperations(reasonExample),
];
