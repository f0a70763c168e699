import { DurableObject } from 'cloudflare:workers';
import { app } from './app';

export { AuditTrail } from './audit/audit-trail';
export { RateLimiter } from './limits/rate-limiter';
export { TenantBudget } from './limits/tenant-budget';

export default {
  fetch: app.fetch,
} satisfies ExportedHandler<Env>;

export class ReceiptLog extends DurableObject<Env> {}
export class ModelHealth extends DurableObject<Env> {}
