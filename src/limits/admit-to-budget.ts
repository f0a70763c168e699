import { ApiError } from '../errors';
import type { RoundTrips } from '../storage/round-trips';
import { lazyStub, stubByName } from '../storage/stub-by-name';
import type { Admission } from './admission';
import { BudgetLeases } from './budget-lease';
import { isKnownUncapped, rememberUncapped } from './uncapped-tenants';

function usd(value: number): string {
  return `$${Number(value.toPrecision(4))}`;
}

/**
 * The 402 of a reservation that did not fit. Requests reserve their worst case until they settle, so
 * the cap can refuse while most of it is unspent: the message says that the reservation, not the
 * spend, did not fit, and how much is free.
 */
function refusal(
  reservation: { capUsd: number; spentUsd: number; reservedUsd: number },
  minimumUsd: number,
): ApiError {
  const { capUsd, spentUsd, reservedUsd } = reservation;
  const freeUsd = Math.max(0, capUsd - spentUsd - reservedUsd);
  const message =
    spentUsd >= capUsd
      ? `The tenant’s monthly spend cap of ${usd(capUsd)} is spent.`
      : `This request’s reservation does not fit in the tenant’s monthly spend cap: it needs at least ${usd(minimumUsd)} (its cheapest model’s worst case), and ${usd(freeUsd)} of the ${usd(capUsd)} cap is free — ${usd(spentUsd)} is spent and ${usd(reservedUsd)} is reserved (by requests still running and by the leases Valve's isolates hold to admit them), which settles back to what requests actually cost.`;
  return new ApiError('limit.budget_exhausted', message, {
    details: { capUsd, spentUsd, reservedUsd, freeUsd, requiredUsd: minimumUsd },
  });
}

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
    // Made only when the lease must be drawn or settled: most admissions are covered by this isolate's lease.
    const budget = lazyStub(() => stubByName(env.TENANT_BUDGET, tenant));
    const admitted = await budgetLeases.admit(tenant, wantedUsd, minimumUsd, {
      drawLease: (leaseId, wanted, minimum) => budget.drawLease(leaseId, wanted, minimum),
      settleLease: (leaseId, spent, release) => budget.settleLease(leaseId, spent, release),
      background,
      wait: (work) => trips.time('do:budget', work),
    });
    if (!admitted.ok) throw refusal(admitted, minimumUsd);
    if (!admitted.capped) {
      rememberUncapped(tenant, Date.now());
      return unlimited;
    }
    return admitted.admission;
  };
}
