import { ApiError } from '../errors';
import type { RoundTrips } from '../storage/round-trips';
import type { Admission } from './admission';
import { BudgetLeases } from './budget-lease';
import { isKnownUncapped, rememberUncapped } from './uncapped-tenants';

const unlimited: Admission = { budgetUsd: Number.POSITIVE_INFINITY, settle: async () => {} };

/** This isolate's leases of every capped tenant's budget. */
export const budgetLeases = new BudgetLeases();

/** Work behind the answer, kept alive by the request (waitUntil). */
export type Background = (work: () => Promise<unknown>) => void;

/**
 * The admission step of a tenant's requests: admit the request's worst case against this isolate's
 * lease of the tenant's budget, drawn from the tenant's Durable Object (the single writer that makes
 * concurrent overspending impossible), or refuse with 402. Tenants without a cap skip the object once
 * it has said so.
 */
export function admitToBudget(env: Env, tenant: string, trips: RoundTrips, background: Background) {
  return async (wantedUsd: number, minimumUsd: number): Promise<Admission> => {
    if (isKnownUncapped(tenant, Date.now())) return unlimited;
    const budget = env.TENANT_BUDGET.getByName(tenant);
    const admitted = await budgetLeases.admit(tenant, wantedUsd, minimumUsd, {
      drawLease: (leaseId, wanted, minimum) => budget.drawLease(leaseId, wanted, minimum),
      settleLease: (leaseId, spent, release) => budget.settleLease(leaseId, spent, release),
      background,
      wait: (work) => trips.time('do:budget', work),
    });
    if (!admitted.ok) {
      throw new ApiError('limit.budget_exhausted', 'The tenant’s monthly spend cap is reached.', {
        details: {
          capUsd: admitted.capUsd,
          spentUsd: admitted.spentUsd,
          reservedUsd: admitted.reservedUsd,
        },
      });
    }
    if (!admitted.capped) {
      rememberUncapped(tenant, Date.now());
      return unlimited;
    }
    return admitted.admission;
  };
}
