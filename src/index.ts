import { env } from 'cloudflare:workers';
import { app } from './app';
import { parseCatalog } from './policy/load-catalog';

// Fail loudly at startup: a broken VALVE_CATALOG stops `wrangler dev` and `wrangler deploy` with the
// path of each bad field, instead of failing requests one by one later.
if (env.VALVE_CATALOG?.trim()) parseCatalog(env.VALVE_CATALOG);

export { AuditTrail } from './audit/audit-trail';
export { ModelHealth } from './health/model-health';
export { RateLimiter } from './limits/rate-limiter';
export { TenantBudget } from './limits/tenant-budget';
export { ReceiptLog } from './log/receipt-log';

export default {
  fetch: app.fetch,
} satisfies ExportedHandler<Env>;
