import { ApiError } from '../errors';
import type { Admission } from './admission';
import { isKnownUncapped, rememberUncapped } from './uncapped-tenants';

const unlimited: Admission = { budgetUsd: Number.POSITIVE_INFINITY, settle: async () => {} };

/**
 * The admission step of a tenant's requests: reserve the request's worst case in the tenant's budget
 * Durable Object (the single writer that makes concurrent overspending impossible), or refuse with 402.
 * Tenants without a cap skip the object once it has said so.
 */
export function admitToBudget(env: Env, tenant: string) {
  return async (wantedUsd: number, minimumUsd: number): Promise<Admission> => {
    if (isKnownUncapped(tenant, Date.now())) return unlimited;
    const budget = env.TENANT_BUDGET.getByName(tenant);
    const reservation = await budget.reserve(wantedUsd, minimumUsd);
    if (!reservation.ok) {
      throw new ApiError('limit.budget_exhausted', 'The tenant’s monthly spend cap is reached.', {
        details: {
          capUsd: reservation.capUsd,
          spentUsd: reservation.spentUsd,
          reservedUsd: reservation.reservedUsd,
        },
      });
    }
    if (!reservation.capped) {
      rememberUncapped(tenant, Date.now());
      return unlimited;
    }
    const id = reservation.id;
    return { budgetUsd: reservation.amountUsd, settle: (actualUsd) => budget.settle(id, actualUsd) };
  };
}
