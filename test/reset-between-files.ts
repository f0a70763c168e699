import { listDurableObjectIds, runInDurableObject } from 'cloudflare:test';
import type * as Rpc from 'cloudflare:workers';
import { env } from 'cloudflare:workers';
import { vi } from 'vitest';
import { resetWriteBehindFigures } from '../src/background/write-with-retries';
import { resetHealthCache } from '../src/health/health-client';

// The Workers project runs many test files in one workerd (vitest.config.ts, isolate: false). Each file
// still starts as if alone: no mock, fake clock or stubbed global left by the file before, no row in
// D1, no Durable Object holding state, and no per-isolate cache Valve keeps between requests.

vi.useRealTimers();
vi.restoreAllMocks();
vi.unstubAllGlobals();
vi.unstubAllEnvs();
resetHealthCache();
resetWriteBehindFigures();

/** Empties one object and drops its instance, so nothing it keeps in memory outlives its storage. */
function emptyObject<O extends Rpc.DurableObject>(namespace: DurableObjectNamespace<O>, id: DurableObjectId) {
  return runInDurableObject(namespace.get(id), async (_instance, state) => {
    await state.storage.deleteAlarm();
    await state.storage.deleteAll();
    // workerd reports the broken output gate of an aborted instance; the pool leaves out that report
    // for an "Instance dispose", which this is.
    state.abort('Instance dispose');
  }).catch(() => {});
}

async function everyObject<O extends Rpc.DurableObject>(namespace: DurableObjectNamespace<O>) {
  return (await listDurableObjectIds(namespace)).map((id) => emptyObject(namespace, id));
}

/** The tenants earlier files left in D1: the budget objects they may have used. */
async function tenantsInD1(): Promise<string[]> {
  const { results } = await env.DB.prepare(
    'SELECT tenant FROM api_keys UNION SELECT tenant FROM tenant_caps UNION SELECT tenant FROM usage_records',
  ).all<{ tenant: string }>();
  return results.map(({ tenant }) => tenant);
}

async function emptyD1(): Promise<void> {
  const { results } = await env.DB.prepare(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name != 'd1_migrations'",
  ).all<{ name: string }>();
  if (results.length === 0) return;
  await env.DB.batch(results.map(({ name }) => env.DB.prepare(`DELETE FROM "${name}"`)));
}

// The log shards, model health and the audit trail are a few named objects: all of them. Tenant budgets
// are one per tenant, and rate limiters one per API key: waking every one ever made would cost more
// each file, so only the budgets of the tenants earlier files left in D1 (an API key's limiter is never
// met again once its key is gone).
await Promise.all([
  ...(await everyObject(env.RECEIPT_LOG)),
  ...(await everyObject(env.MODEL_HEALTH)),
  ...(await everyObject(env.AUDIT_TRAIL)),
  ...(await tenantsInD1()).map((tenant) =>
    emptyObject(env.TENANT_BUDGET, env.TENANT_BUDGET.idFromName(tenant)),
  ),
]);
await emptyD1();
