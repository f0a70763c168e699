import { afterEach, describe, expect, it, vi } from 'vitest';
import { type BudgetLeaseIo, BudgetLeases, idleLeaseMs, settleWindowMs } from '../../src/limits/budget-lease';
import type { Reservation } from '../../src/limits/tenant-budget';

/** The tenant object's arithmetic (TenantBudget.drawLease / settleLease), with a settle the test may hold. */
function tenantObject(capUsd: number) {
  const state = { spentUsd: 0, reserved: new Map<string, number>(), draws: 0, settles: 0, spendSettles: 0 };
  const everUsed = new Set<string>();
  const reservedUsd = () => [...state.reserved.values()].reduce((a, b) => a + b, 0);
  const io: Omit<BudgetLeaseIo, 'background'> = {
    drawLease: async (leaseId, wantedUsd, minimumUsd): Promise<Reservation> => {
      state.draws++;
      await Promise.resolve();
      const left = capUsd - state.spentUsd - reservedUsd();
      if (left <= 0 || left < minimumUsd)
        return { ok: false, capUsd, spentUsd: state.spentUsd, reservedUsd: reservedUsd() };
      const amountUsd = Math.min(wantedUsd, left);
      // As TenantBudget.drawLease: the held reservation, else one under the asked id if it was never used.
      const id =
        leaseId !== null && (state.reserved.has(leaseId) || !everUsed.has(leaseId))
          ? leaseId
          : crypto.randomUUID();
      everUsed.add(id);
      state.reserved.set(id, (state.reserved.get(id) ?? 0) + amountUsd);
      return { ok: true, id, amountUsd, capped: true };
    },
    settleLease: async (leaseId, spentUsd, releaseUsd) => {
      state.settles++;
      if (spentUsd > 0) state.spendSettles++;
      await Promise.resolve();
      const left = (state.reserved.get(leaseId) ?? 0) - spentUsd - releaseUsd;
      if (left <= 1e-12) state.reserved.delete(leaseId);
      else state.reserved.set(leaseId, left);
      state.spentUsd += spentUsd;
    },
    wait: (work) => work(),
  };
  return { state, io, reservedUsd };
}

describe('per-isolate budget leases', () => {
  it('never admits more than the cap holds while 200 requests are in flight at once, across isolates', async () => {
    const perRequest = 0.001;
    const tenant = tenantObject(perRequest * 50);
    const background: Promise<unknown>[] = [];
    const io = { ...tenant.io, background: (work: () => Promise<unknown>) => void background.push(work()) };
    const isolates = [new BudgetLeases(), new BudgetLeases(), new BudgetLeases()];
    // Nobody settles until every request was admitted or refused: every admission is held at once.
    const outcomes = await Promise.all(
      Array.from({ length: 200 }, (_, i) => isolates[i % 3]?.admit('t', perRequest, perRequest, io)),
    );
    const admitted = outcomes.flatMap((o) => (o?.ok && o.capped ? [o.admission] : []));
    const refused = outcomes.filter((o) => o && !o.ok).length;
    expect(admitted.length + refused).toBe(200);
    expect(admitted.length).toBeLessThanOrEqual(50);
    expect(admitted.reduce((sum, a) => sum + a.budgetUsd, 0)).toBeLessThanOrEqual(perRequest * 50 + 1e-12);
    // Each spends its whole worst case; then every lease settles and goes back.
    for (const admission of admitted) await admission.settle(admission.budgetUsd);
    await Promise.all(background);
    await Promise.all(background);
    expect(tenant.state.spentUsd).toBeLessThanOrEqual(perRequest * 50 + 1e-12);
    expect(tenant.state.spentUsd).toBeCloseTo(
      admitted.reduce((sum, a) => sum + a.budgetUsd, 0),
      12,
    );
    expect(tenant.reservedUsd()).toBeCloseTo(0, 12);
  });

  it('admits from its lease without asking the object, and settles in fewer calls than requests', async () => {
    const tenant = tenantObject(1);
    const background: Promise<unknown>[] = [];
    let waits = 0;
    const io = {
      ...tenant.io,
      background: (work: () => Promise<unknown>) => void background.push(work()),
      wait: <T>(work: () => Promise<T>) => {
        waits++;
        return work();
      },
    };
    const leases = new BudgetLeases();
    const first = await leases.admit('t', 0.01, 0.01, io);
    const later = await Promise.all(Array.from({ length: 3 }, () => leases.admit('t', 0.01, 0.01, io)));
    expect(waits).toBe(1); // one draw of a few requests' worth; the next three came out of it
    expect(tenant.state.draws).toBe(1);
    for (const a of [first, ...later]) if (a.ok && a.capped) await a.admission.settle(0.002);
    await Promise.all(background);
    await Promise.all(background);
    // Spend settles in fewer calls than requests; the idle lease then goes back in a call of its own.
    expect(tenant.state.spendSettles).toBeLessThan(4);
    expect(tenant.state.settles).toBe(tenant.state.spendSettles + 1);
    expect(tenant.state.spentUsd).toBeCloseTo(0.008, 12);
    expect(tenant.reservedUsd()).toBeCloseTo(0, 12);
  });

  it('never waits on another request’s draw: each draws for itself, into the one reservation', async () => {
    // A request that awaited a draw another request made would have no I/O of its own while it waits,
    // and workerd cancels such a request as hung when the thread goes idle (it did, under load).
    const tenant = tenantObject(1);
    const background: Promise<unknown>[] = [];
    const io = { ...tenant.io, background: (work: () => Promise<unknown>) => void background.push(work()) };
    const leases = new BudgetLeases();
    const admitted = await Promise.all(Array.from({ length: 4 }, () => leases.admit('t', 0.01, 0.01, io)));
    expect(admitted.every((a) => a.ok && a.capped)).toBe(true);
    expect(tenant.state.draws).toBe(4);
    expect(tenant.state.reserved.size).toBe(1);
    expect(tenant.reservedUsd()).toBeCloseTo(0.04 + 3 * 0.01, 12);
    for (const a of admitted) if (a.ok && a.capped) await a.admission.settle(0.002);
    await Promise.all(background);
    await Promise.all(background);
    expect(tenant.state.spentUsd).toBeCloseTo(0.008, 12);
    expect(tenant.reservedUsd()).toBeCloseTo(0, 12);
  });

  it('refuses with the object’s figures once the cap is spent', async () => {
    const tenant = tenantObject(0);
    const leases = new BudgetLeases();
    const refused = await leases.admit('t', 0.01, 0.01, { ...tenant.io, background: () => undefined });
    expect(refused).toEqual({ ok: false, capUsd: 0, spentUsd: 0, reservedUsd: 0 });
  });

  it('keeps a settlement the tenant object failed to take, and delivers it on a later try', async () => {
    const tenant = tenantObject(1);
    let failures = 2;
    const settle = tenant.io.settleLease;
    const background: Promise<unknown>[] = [];
    const io = {
      ...tenant.io,
      settleLease: (id: string, spent: number, release: number) =>
        failures-- > 0 ? Promise.reject(new Error('object unreachable')) : settle(id, spent, release),
      background: (work: () => Promise<unknown>) => void background.push(work()),
    };
    const leases = new BudgetLeases();
    const outcome = await leases.admit('t', 0.01, 0.01, io);
    expect(outcome.ok && outcome.capped).toBe(true);
    if (!outcome.ok || !outcome.capped) return;
    await outcome.admission.settle(0.004);
    await Promise.all(background);
    expect(tenant.state.spentUsd).toBeCloseTo(0.004, 12);
    expect(tenant.reservedUsd()).toBeCloseTo(0, 12);
  });

  it('settles what its requests spend within the settlement window in one call to the object', async () => {
    vi.useFakeTimers();
    try {
      const tenant = tenantObject(1);
      const io: BudgetLeaseIo = { ...tenant.io, background: (work) => void work() };
      const leases = new BudgetLeases();
      const admitted = await Promise.all(Array.from({ length: 5 }, () => leases.admit('t', 0.01, 0.01, io)));
      for (const [i, outcome] of admitted.entries()) {
        if (!outcome.ok || !outcome.capped) throw new Error('not admitted from a lease');
        await outcome.admission.settle(0.001 * (i + 1));
        await vi.advanceTimersByTimeAsync(settleWindowMs / 10);
      }
      // Within the window nothing has reached the object; the lease's reservation still covers it all.
      expect(tenant.state.settles).toBe(0);
      expect(tenant.reservedUsd()).toBeGreaterThanOrEqual(0.015);
      await vi.advanceTimersByTimeAsync(settleWindowMs);
      expect(tenant.state.spendSettles).toBe(1);
      expect(tenant.state.spentUsd).toBeCloseTo(0.015, 12);
    } finally {
      vi.useRealTimers();
    }
  });

  describe('an idle lease', () => {
    afterEach(() => {
      vi.useRealTimers();
    });

    /** One request from admission to settlement, as the route makes it. */
    async function oneRequest(leases: BudgetLeases, io: BudgetLeaseIo, spentUsd: number) {
      const outcome = await leases.admit('t', 0.01, 0.01, io);
      if (!outcome.ok || !outcome.capped) throw new Error('not admitted from a lease');
      await outcome.admission.settle(spentUsd);
    }

    it('is kept a moment, so the next request takes from it without waiting on a draw', async () => {
      vi.useFakeTimers();
      const tenant = tenantObject(1);
      let waits = 0;
      const io: BudgetLeaseIo = {
        ...tenant.io,
        background: (work) => void work(),
        wait: (work) => {
          waits++;
          return work();
        },
      };
      const leases = new BudgetLeases();
      await oneRequest(leases, io, 0.002);
      await vi.advanceTimersByTimeAsync(idleLeaseMs / 2);
      await oneRequest(leases, io, 0.003);
      expect(waits).toBe(1);
      expect(tenant.state.draws).toBe(1);
      // Spend is settled at once; the first request's check finds the lease used since, and keeps it.
      await vi.advanceTimersByTimeAsync(idleLeaseMs / 2);
      expect(tenant.state.spentUsd).toBeCloseTo(0.005, 12);
      expect(tenant.reservedUsd()).toBeGreaterThan(0);
    });

    it('goes back whole once no request took from it for idleLeaseMs, counted from the last one', async () => {
      vi.useFakeTimers();
      const tenant = tenantObject(1);
      const io: BudgetLeaseIo = { ...tenant.io, background: (work) => void work() };
      const leases = new BudgetLeases();
      await oneRequest(leases, io, 0.002);
      await vi.advanceTimersByTimeAsync(idleLeaseMs * 0.6);
      await oneRequest(leases, io, 0.001);
      // The first request's check finds the lease used since, and keeps it.
      await vi.advanceTimersByTimeAsync(idleLeaseMs * 0.6);
      expect(tenant.reservedUsd()).toBeGreaterThan(0);
      // The second request's own check gives it back: nothing is held, all spend is settled.
      await vi.advanceTimersByTimeAsync(idleLeaseMs * 0.6);
      expect(tenant.reservedUsd()).toBeCloseTo(0, 12);
      expect(tenant.state.spentUsd).toBeCloseTo(0.003, 12);
      // The next request draws a new lease.
      await oneRequest(leases, io, 0.001);
      expect(tenant.state.draws).toBe(2);
    });
  });
});
