import { Hono } from 'hono';
import { recordAudit } from '../audit/record-audit';
import { budgetChangeSchema, tenantSchema } from '../contracts/operator-bodies';
import type { AppEnv } from '../env';
import { budgetLeases } from '../limits/admit-to-budget';
import { forgetUncapped } from '../limits/uncapped-tenants';
import { requireJson, validationError, validJson } from '../middleware/json-body';
import { requireAdmin } from '../middleware/require-admin';
import { monthSpend } from '../storage/usage-records';

function tenantParam(value: string): string {
  const result = tenantSchema.safeParse(value);
  if (!result.success)
    throw validationError({ issues: result.error.issues.map((i) => ({ ...i, path: ['tenant'] })) });
  return result.data;
}

export const adminTenantRoutes = new Hono<AppEnv>()
  .use('*', requireAdmin)
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
    await recordAudit(c.env, {
      action: 'budget.changed',
      actor: 'admin',
      subject: tenant,
      outcome: 'ok',
      details: { monthlyCapUsd },
    });
    return c.json({ tenant, ...status });
  });
