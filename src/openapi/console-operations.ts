import {
  keysPageSchema,
  keysQuerySchema,
  receiptsPageSchema,
  receiptsQuerySchema,
  tenantsPageSchema,
  tenantsQuerySchema,
} from '../contracts/admin-lists';
import { modelStatusListSchema } from '../contracts/admin-models';
import { adminUsageBodySchema, adminUsageQuerySchema } from '../contracts/admin-usage';
import { encodeCursor } from '../contracts/list-cursor';
import type { Operation } from './operation';

// The admin lists the operator's console reads (GET /console): keys, tenants, usage across tenants,
// models with live health, and receipts. Metadata only; each list is paged with `limit` and `cursor`.

const paging =
  ' A page holds `limit` rows (at most 1000, 100 when not given); when more follow, `next` is the `cursor` to send for the next page.';

export const consoleOperations: Operation[] = [
  {
    method: 'get',
    path: '/v1/admin/keys',
    summary: `API keys, newest first, of every tenant or of \`tenant\`: id, tenant, scopes, rate limit, when created, revoked and last used. Never the key or its hash.${paging}`,
    security: { kind: 'admin' },
    query: keysQuerySchema,
    status: 200,
    response: keysPageSchema,
    example: {
      response: {
        keys: [
          {
            id: 'key_0123456789abcdef',
            tenant: 'acme',
            scopes: ['reason', 'receipts:read'],
            rateLimitPerMinute: 120,
            createdAt: 1767225600123,
            revokedAt: null,
            lastUsedAt: 1767229200456,
          },
        ],
        next: encodeCursor([1767225600123, 'key_0123456789abcdef']),
      },
    },
  },
  {
    method: 'get',
    path: '/v1/admin/tenants',
    summary: `Every tenant with a key or a spend cap, by name: its active and revoked keys, its monthly cap, what its usage cost this month (UTC) and the cap left after it.${paging}`,
    security: { kind: 'admin' },
    query: tenantsQuerySchema,
    status: 200,
    response: tenantsPageSchema,
    example: {
      response: {
        month: '2026-12',
        tenants: [
          {
            tenant: 'acme',
            activeKeys: 2,
            revokedKeys: 1,
            capUsd: 50,
            spentUsd: 3.2,
            remainingUsd: 46.8,
          },
          {
            tenant: 'globex',
            activeKeys: 1,
            revokedKeys: 0,
            capUsd: null,
            spentUsd: 0.4,
            remainingUsd: null,
          },
        ],
        next: null,
      },
    },
  },
  {
    method: 'get',
    path: '/v1/admin/usage',
    summary:
      'Usage of every tenant (or of `tenant`), aggregated by `groupBy` (tenant, model, day; default tenant), from `from` (default: 30 days ago) to `to` (default: today), `from` not after `to`. Rows come in the order of their groups, at most `limit` a page (up to 10 000, 1000 when not given); `next` is the `cursor` of the next page; `totals` cover the whole range.',
    security: { kind: 'admin' },
    query: adminUsageQuerySchema,
    status: 200,
    response: adminUsageBodySchema,
    example: {
      response: {
        tenant: null,
        from: '2026-12-01',
        to: '2026-12-31',
        groupBy: ['tenant', 'model'],
        rows: [
          {
            tenant: 'acme',
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
        next: null,
      },
    },
  },
  {
    method: 'get',
    path: '/v1/admin/models',
    summary:
      'Every catalog model with whether its provider is configured (and why not), its regions and prices, observed latency and error rate, and its circuit (closed, open until `retryAt`, or probing), read fresh from shared health.',
    security: { kind: 'admin' },
    status: 200,
    response: modelStatusListSchema,
    example: {
      response: {
        at: 1767225600123,
        models: [
          {
            provider: 'openai',
            kind: 'openai',
            model: 'gpt-4.1-mini',
            configured: false,
            notConfiguredReason: 'provider openai has no key: set the OPENAI_API_KEY secret',
            simulated: false,
            regions: ['us'],
            priceUsdPerMTok: { input: 0.4, output: 1.6, cacheRead: 0.1 },
            latency: { catalog: { ttftMsP50: 400, ttftMsP90: 900, outputTokensPerSec: 90 }, observed: null },
            health: { circuit: 'closed', circuitScope: 'model', retryAt: null, samples: 0, errorRate: 0 },
          },
          {
            provider: 'sim',
            kind: 'sim',
            model: 'fast',
            configured: true,
            simulated: true,
            regions: ['us', 'eu'],
            priceUsdPerMTok: { input: 0.1, output: 0.4 },
            latency: {
              catalog: { ttftMsP50: 50, ttftMsP90: 120, outputTokensPerSec: 200 },
              observed: { ttftMsP50: 9, ttftMsP90: 14 },
            },
            health: {
              circuit: 'open',
              circuitScope: 'model',
              retryAt: 1767225630123,
              samples: 12,
              errorRate: 0.49,
              lastErrorKind: 'overloaded',
            },
          },
        ],
      },
    },
  },
  {
    method: 'get',
    path: '/v1/admin/receipts',
    summary: `Issued receipts of every tenant or of \`tenant\`, newest first: id, tenant, time, model, cost and log entry. Never the JWS, the proof or content.${paging}`,
    security: { kind: 'admin' },
    query: receiptsQuerySchema,
    status: 200,
    response: receiptsPageSchema,
    example: {
      response: {
        receipts: [
          {
            receiptId: '3f0e2a6c-5b1d-4c8e-9a7f-0123456789ab',
            tenant: 'acme',
            issuedAt: 1767225600123,
            model: { provider: 'sim', model: 'fast', region: 'us' },
            costUsd: 0.0000342,
            log: { origin: 'valve.local/log/0', index: 41 },
          },
        ],
        next: null,
      },
    },
  },
];
