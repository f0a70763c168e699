import { DurableObject } from 'cloudflare:workers';
import { app } from './app';

export { RateLimiter } from './limits/rate-limiter';
export { TenantBudget } from './limits/tenant-budget';

export default {
  fetch: app.fetch,
} satisfies ExportedHandler<Env>;

export class ReceiptLog extends DurableObject<Env> {}
export class ModelHealth extends DurableObject<Env> {}
