// A per-isolate memory of tenants known to have no spend cap, so their requests skip the budget
// Durable Object. A new cap takes effect at once in the isolate that set it and within the TTL elsewhere.

export const uncappedTtlMs = 5_000;
const known = new Map<string, number>();

export function isKnownUncapped(tenant: string, now: number): boolean {
  const expiresAt = known.get(tenant);
  if (expiresAt === undefined) return false;
  if (expiresAt > now) return true;
  known.delete(tenant);
  return false;
}

export function rememberUncapped(tenant: string, now: number): void {
  if (known.size >= 10_000) known.clear();
  known.set(tenant, now + uncappedTtlMs);
}

export function forgetUncapped(tenant: string): void {
  known.delete(tenant);
}
