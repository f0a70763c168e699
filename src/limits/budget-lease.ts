import type { Admission } from './admission';
import type { Reservation } from './tenant-budget';

// Per-isolate leases of a capped tenant's budget. Instead of a reservation and a settlement in the
// tenant's Durable Object for every request (two round trips, one of them awaited before the model is
// called), an isolate draws a standing reservation — a lease — a few requests' worth at a time, admits
// its requests against it locally, and settles what they spent behind the answer, one settlement in
// flight at a time, each carrying everything that settled since the last.
//
// The cap still holds: the object hands out a lease only from what is left after spend and every other
// reservation, and a request is admitted only for an amount its isolate's lease still holds, so spend
// plus every lease never passes the cap. A lease goes back to the object once no request of the
// isolate has taken from it for `idleLeaseMs`; one that an isolate never returns (it was evicted) lapses with the object's
// reservation lifetime.

/** How many requests' worst case a draw asks for beyond the one that needs it. */
export const leaseRequests = 4;

/** How long a lease no request is using is kept before it goes back to the tenant's object. */
export const idleLeaseMs = 250;

/**
 * How long a settlement collects what requests spent before it is sent. Each settlement is a call to
 * the tenant's object and a commit there; sent as soon as the last one answered, a busy isolate sent
 * one every few requests. The cap does not wait on it: until it lands, the spend is still covered by
 * the lease's reservation, which no other isolate can use.
 */
export const settleWindowMs = 100;

export interface BudgetLeaseIo {
  drawLease: (leaseId: string | null, wantedUsd: number, minimumUsd: number) => Promise<Reservation>;
  settleLease: (leaseId: string, spentUsd: number, releaseUsd: number) => Promise<void>;
  background: (work: () => Promise<unknown>) => void;
  /** Wraps a draw the request waits on (a counted round trip). */
  wait: <T>(work: () => Promise<T>) => Promise<T>;
}

export type LeaseAdmission =
  | { ok: true; capped: false }
  | { ok: true; capped: true; admission: Admission }
  | Extract<Reservation, { ok: false }>;

interface Lease {
  /** The object's reservation for this lease, once a draw made it. */
  id: string | null;
  /** The id the isolate asks the object to open the reservation under: every draw, even concurrent first ones, names it. */
  proposedId: string;
  /** Held in the object for this lease and not yet promised to a request or spent. */
  availableUsd: number;
  inFlight: number;
  /** Admissions taken from the lease so far: an idle lease taken from since a check began is kept. */
  takes: number;
  /** Spent by finished requests, not yet settled in the object. */
  unsettledUsd: number;
  drawing: Promise<Reservation> | undefined;
  /** Draws made by requests that found one in flight, for themselves (see `admit`). */
  ownDraws: number;
  settling: boolean;
}

export class BudgetLeases {
  private readonly leases = new Map<string, Lease>();

  async admit(
    tenant: string,
    wantedUsd: number,
    minimumUsd: number,
    io: BudgetLeaseIo,
  ): Promise<LeaseAdmission> {
    const lease = this.leaseOf(tenant);
    // A lease of n requests' worth must admit n of them: sums of dollars are not exact in binary.
    const fits = () => lease.availableUsd + 1e-12 >= minimumUsd && (lease.availableUsd > 0 || wantedUsd <= 0);
    // Each draw that answers ok moves at least `minimumUsd` into some lease, so the rounds end; the
    // bound only keeps a pathological race from spinning.
    for (let round = 0; round < 16; round++) {
      if (fits()) return { ok: true, capped: true, admission: this.take(tenant, lease, wantedUsd, io) };
      // A request never waits on another request's draw: a promise another request's I/O settles
      // leaves this one with no I/O of its own, and workerd cancels such a request as hung once the
      // thread is idle. One that finds a draw in flight draws for itself, for its own worst case.
      const drawn = await io.wait(() =>
        lease.drawing === undefined
          ? this.draw(lease, wantedUsd, minimumUsd, io)
          : this.drawFor(lease, wantedUsd, minimumUsd, io),
      );
      if (drawn.ok && !drawn.capped) {
        if (this.leases.get(tenant) === lease && lease.inFlight === 0) this.leases.delete(tenant);
        return { ok: true, capped: false };
      }
      if (!drawn.ok && !fits()) return drawn;
    }
    if (fits()) return { ok: true, capped: true, admission: this.take(tenant, lease, wantedUsd, io) };
    // Asks for more than can be left, to refuse with the object's own figures (or learn the cap is gone).
    const last = await io.drawLease(null, 0, Number.POSITIVE_INFINITY);
    return last.ok ? { ok: true, capped: false } : last;
  }

  /**
   * Drops this isolate's lease of `tenant` (its cap changed): the next request draws afresh. Answers
   * what the caller must settle when no request is using the lease (a busy one settles itself).
   */
  forget(tenant: string): { leaseId: string; spentUsd: number; releaseUsd: number } | undefined {
    const lease = this.leases.get(tenant);
    this.leases.delete(tenant);
    if (!lease || lease.id === null || !this.idle(lease) || lease.settling) return undefined;
    const settlement = {
      leaseId: lease.id,
      spentUsd: lease.unsettledUsd,
      releaseUsd: Math.max(0, lease.availableUsd),
    };
    lease.unsettledUsd = 0;
    lease.availableUsd = 0;
    return settlement;
  }

  private leaseOf(tenant: string): Lease {
    let lease = this.leases.get(tenant);
    if (!lease) {
      if (this.leases.size >= 10_000) this.leases.clear();
      lease = {
        id: null,
        proposedId: crypto.randomUUID(),
        availableUsd: 0,
        inFlight: 0,
        takes: 0,
        unsettledUsd: 0,
        drawing: undefined,
        ownDraws: 0,
        settling: false,
      };
      this.leases.set(tenant, lease);
    }
    return lease;
  }

  /** The lease's draw: a few requests' worth, the one later requests of this isolate see in flight. */
  private draw(lease: Lease, wantedUsd: number, minimumUsd: number, io: BudgetLeaseIo): Promise<Reservation> {
    const drawing = (async () => {
      try {
        return this.added(
          lease,
          await io.drawLease(lease.id ?? lease.proposedId, wantedUsd * leaseRequests, minimumUsd),
        );
      } finally {
        lease.drawing = undefined;
      }
    })();
    lease.drawing = drawing;
    return drawing;
  }

  /** A request's own draw, made while the lease's draw is in flight: into the same reservation. */
  private async drawFor(
    lease: Lease,
    wantedUsd: number,
    minimumUsd: number,
    io: BudgetLeaseIo,
  ): Promise<Reservation> {
    lease.ownDraws++;
    try {
      return this.added(lease, await io.drawLease(lease.id ?? lease.proposedId, wantedUsd, minimumUsd));
    } finally {
      lease.ownDraws--;
    }
  }

  private added(lease: Lease, drawn: Reservation): Reservation {
    if (drawn.ok && drawn.capped) {
      lease.id = drawn.id;
      lease.availableUsd += drawn.amountUsd;
    }
    return drawn;
  }

  private take(tenant: string, lease: Lease, wantedUsd: number, io: BudgetLeaseIo): Admission {
    const amountUsd = Math.min(wantedUsd, lease.availableUsd);
    lease.availableUsd -= amountUsd;
    lease.inFlight++;
    lease.takes++;
    let settled = false;
    return {
      budgetUsd: amountUsd,
      settle: async (actualUsd) => {
        if (settled) return;
        settled = true;
        const spent = Math.max(0, actualUsd);
        lease.inFlight--;
        lease.unsettledUsd += spent;
        // What the request did not use goes back to the lease (a provider that billed past the
        // worst case takes the difference from it, never from another isolate's share).
        lease.availableUsd += amountUsd - spent;
        this.settleSoon(tenant, lease, io);
        if (this.idle(lease)) this.releaseWhenUnused(tenant, lease, io);
      },
    };
  }

  /** Sends what settled since the last settlement, unless one is in flight (it sends the rest after). */
  private settleSoon(tenant: string, lease: Lease, io: BudgetLeaseIo): void {
    if (lease.settling || lease.id === null) return;
    lease.settling = true;
    // A lease the isolate no longer holds (given back unused, or dropped because its cap changed) goes
    // back whole once idle, so other isolates can use it; a held one is kept.
    const releasing = () => this.leases.get(tenant) !== lease && this.idle(lease);
    const due = () => lease.unsettledUsd > 0 || (releasing() && lease.availableUsd > 0);
    io.background(async () => {
      try {
        while (lease.id !== null && due()) {
          // What requests spend in the window rides in this settlement. A lease going back is idle and
          // out of the isolate's map, so nothing more can come: it goes back at once.
          if (!releasing()) await new Promise((resolve) => setTimeout(resolve, settleWindowMs));
          if (lease.id === null || !due()) break;
          const id = lease.id;
          const spent = lease.unsettledUsd;
          const giveBack = releasing();
          const release = giveBack ? Math.max(0, lease.availableUsd) : 0;
          lease.unsettledUsd -= spent;
          lease.availableUsd -= release;
          if (!(await settleWithRetries(() => io.settleLease(id, spent, release)))) {
            // Never drop spend: it goes back on the lease, which the next settlement carries.
            lease.unsettledUsd += spent;
            lease.availableUsd += release;
            if (giveBack && !this.leases.has(tenant)) this.leases.set(tenant, lease);
            console.error(JSON.stringify({ event: 'budget.settlement_failed', tenant, spentUsd: spent }));
            break;
          }
        }
      } finally {
        lease.settling = false;
      }
    });
  }

  /**
   * Gives an idle lease back whole once no request has taken from it for `idleLeaseMs`. Under steady
   * load a lease falls idle between requests all the time; giving it back at once made the next request
   * wait on a fresh draw (60% of a capped tenant's requests at 16 connections). Every request that
   * leaves the lease idle makes this check for itself, so the last one before a quiet spell gives it
   * back, and no check waits on another request.
   */
  private releaseWhenUnused(tenant: string, lease: Lease, io: BudgetLeaseIo): void {
    const takes = lease.takes;
    io.background(async () => {
      await new Promise((resolve) => setTimeout(resolve, idleLeaseMs));
      if (lease.takes !== takes || !this.idle(lease) || lease.id === null) return;
      if (this.leases.get(tenant) === lease) this.leases.delete(tenant);
      this.settleSoon(tenant, lease, io);
    });
  }

  private idle(lease: Lease): boolean {
    return lease.inFlight === 0 && lease.drawing === undefined && lease.ownDraws === 0;
  }
}

/** Waits before each further try of a settlement the tenant's object did not take. */
const settleRetryMs = [50, 250, 1000];

/** One settlement, tried again after a failure; false when every try failed. */
async function settleWithRetries(send: () => Promise<void>): Promise<boolean> {
  for (let attempt = 0; ; attempt++) {
    try {
      await send();
      return true;
    } catch {
      const wait = settleRetryMs[attempt];
      if (wait === undefined) return false;
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}
