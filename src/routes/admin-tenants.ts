import { Hono } from 'hono';
import { z } from 'zod';
import { recordAudit } from '../audit/record-audit';
import type { AppEnv } from '../env';
import { requireJson, validationError, validJson } from '../middleware/json-body';
import { requireAdmin } from '../middleware/require-admin';

export const tenantNameSchema = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/, 'must be 1–64 characters of A–Z, a–z, 0–9, _ . -');

export const budgetSchema = z.strictObject({
  /** The tenant's monthly spend cap in USD; null removes the cap. */
  monthlyCapUsd: z.number().min(0).max(1e9).nullable(),
});

function tenantParam(value: string): string {
  const result = tenantNameSchema.safeParse(value);
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
  .put('/tenants/:tenant/budget', requireJson, validJson(budgetSchema), async (c) => {
    const tenant = tenantParam(c.req.param('tenant'));
    const { monthlyCapUsd } = c.req.valid('json');
    const status = await c.env.TENANT_BUDGET.getByName(tenant).setCap(monthlyCapUsd);
    await recordAudit(c.env, {
      action: 'budget.changed',
      actor: 'admin',
      subject: tenant,
      outcome: 'ok',
      details: { monthlyCapUsd },
    });
    return c.json({ tenant, ...status });
  });
