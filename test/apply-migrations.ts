import { applyD1Migrations } from 'cloudflare:test';
import { env } from 'cloudflare:workers';

// Every runtime starts from the real schema: the same append-only migrations `npm start` applies.
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
