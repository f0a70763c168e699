import { Hono } from 'hono';
import { recordAudit } from '../audit/record-audit';
import { defaultPageRows, tenantsQuerySchema } from '../contracts/admin-lists';
import { pageOf } from '../contracts/list-cursor';
import { budgetChangeSchema, tenantSchema } from '../contracts/operator-bodies';
import type { AppEnv } from '../env';
import { budgetLeases } from '../limits/admit-to-budget';
import { forgetUncapped } from '../limits/uncapped-tenants';
import { requireJson, validationError, validJson } from '../middleware/json-body';
import { requireAdmin } from '../middleware/require-admin';
import { validQuery } from '../middleware/valid-query';
import { listTenants, saveTenantCap } from '../storage/tenant-caps';
import { monthSpend } from '../storage/usage-records';

function tenantParam(value: string): string {
  const result = tenantSchema.safeParse(value);
  if (!result.success)
    throw validationError({ issues: result.error.issues.map((i) => ({ ...i, path: ['tenant'] })) });
  return result.data;
}

export const adminTenantRoutes = new Hono<AppEnv>()
  .use('*', requireAdmin)
  .get('/tenants', validQuery(tenantsQuerySchema), async (c) => {
    const { limit = defaultPageRows, cursor } = c.req.valid('query');
    const month = new Date().toISOString().slice(0, 7);
    const rows = await listTenants(c.env.DB, {
      after: cursor?.[0] ?? '',
      sinceDay: `${month}-01`,
      limit: limit + 1,
    });
    const { items, next } = pageOf(rows, limit, (row) => [row.tenant]);
    const tenants = items.map((row) => ({
      ...row,
      remainingUsd: row.capUsd === null ? null : Math.max(0, row.capUsd - row.spentUsd),
    }));
    return c.json({ month, tenants, next });
  })
  .get('/tenants/:tenant/budget', async (c) => {
    const tenant = tenantParam(c.req.param('tenant'));
    const status = await c.env.TENANT_BUDGET.getByName(tenant).status();
    return c.json({ tenant, ...status });
  })
  .put('/tenants/:tenant/budget', requireJson, validJson(budgetChangeSchema), async (c) => {
    const tenant = tenantParam(c.req.param('tenant'));
    const { monthlyCapUsd } = c.req.valid('json');
    const spent = monthlyCapUsd === null ? 0 : await monthSpend(c.env.DB, tenant, Date.now());
    const budget = c.env.TENANT_BUDGET.getByName(tenant);
    // This isolate's lease of the old cap goes back before the new cap is set.
    const settlement = budgetLeases.forget(tenant);
    if (settlement) await budget.settleLease(settlement.leaseId, settlement.spentUsd, settlement.releaseUsd);
    const status = await budget.setCap(monthlyCapUsd, spent);
    forgetUncapped(tenant);
    // Listed only once the object that enforces it holds it.
    await saveTenantCap(c.env.DB, tenant, monthlyCapUsd, Date.now());
    await recordAudit(c.env, {
      action: 'budget.changed',
      actor: 'admin',
      subject: tenant,
      outcome: 'ok',
      details: { monthlyCapUsd },
    });
    return c.json({ tenant, ...status });
  });
