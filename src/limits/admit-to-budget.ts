import { ApiError } from '../errors';
import type { Admission } from './admission';
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
      : `This request’s reservation does not fit in the tenant’s monthly spend cap: it needs at least ${usd(minimumUsd)} (its cheapest model’s worst case), and ${usd(freeUsd)} of the ${usd(capUsd)} cap is free — ${usd(spentUsd)} is spent and ${usd(reservedUsd)} is reserved by requests still running, which settle to what they actually cost.`;
  return new ApiError('limit.budget_exhausted', message, {
    details: { capUsd, spentUsd, reservedUsd, freeUsd, requiredUsd: minimumUsd },
  });
}

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
    if (!reservation.ok) throw refusal(reservation, minimumUsd);
    if (!reservation.capped) {
      rememberUncapped(tenant, Date.now());
      return unlimited;
    }
    const id = reservation.id;
    return { budgetUsd: reservation.amountUsd, settle: (actualUsd) => budget.settle(id, actualUsd) };
  };
}
