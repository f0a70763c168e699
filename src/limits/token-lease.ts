// Per-isolate leases of a key's rate-limit tokens. An isolate draws a few tokens at once from the key's
// Durable Object and spends them locally, drawing the next lease behind the answer once half is spent,
// so a steady stream of requests waits on the object only when its lease ran dry.
//
// Every leased token was taken from the key's bucket, so leases never let more requests through than
// the bucket handed out. The overshoot they allow is the tokens held outside the bucket while it refills:
// at most `leaseSizeOf(perMinute)` per isolate that holds a lease, and a lease lapses after
// `leaseLifetimeMs` unused (which can only refuse requests the bucket would have allowed).

/** What the key's Durable Object answers to a draw (RateLimiter.lease). */
export interface Drawn {
  granted: number;
  retryAfterMs: number;
  remaining: number;
}

export type Draw = (perMinute: number, want: number) => Promise<Drawn>;

/** How a request takes a token: its draw, its work behind the answer, and the wait it is counted for. */
export interface LeaseIo {
  draw: Draw;
  background: (work: () => Promise<unknown>) => void;
  /** Wraps the one wait on the object a request may make (its own draw, or one already in flight). */
  wait: (work: () => Promise<void>) => Promise<void>;
}

export interface LeaseOutcome {
  allowed: boolean;
  retryAfterMs: number;
  /** This isolate's tokens plus what the bucket had left at the last draw. */
  remaining: number;
}

export const leaseLifetimeMs = 10_000;

/** About a second of the limit, at least one token and at most 50. */
export function leaseSizeOf(perMinute: number): number {
  return Math.max(1, Math.min(50, Math.ceil(perMinute / 60)));
}

interface Lease {
  perMinute: number;
  tokens: number;
  expiresAt: number;
  bucketRemaining: number;
  /** While the bucket is empty: no token before this time, so no draw before it either. */
  emptyUntil: number;
  /** The lease's refill, when one is in flight (its own request awaits it, or keeps it alive behind its answer). */
  drawing: Promise<void> | undefined;
}

export class TokenLeases {
  private readonly leases = new Map<string, Lease>();

  constructor(private readonly now: () => number = Date.now) {}

  /**
   * Takes one token of `key`'s limit. `io.draw` asks the key's object (a round trip, awaited only when
   * the lease is empty); `io.background` keeps a refill alive without holding up the answer.
   */
  async take(key: string, perMinute: number, io: LeaseIo): Promise<LeaseOutcome> {
    const lease = this.leaseOf(key, perMinute);
    // A request on an empty lease refills it, or, when a refill is already in flight, draws the one
    // token it needs for itself: it never waits on another request's draw, which would leave it with
    // no I/O of its own (workerd cancels such a request as hung once the thread is idle).
    for (let round = 0; lease.tokens < 1; round++) {
      if (this.now() < lease.emptyUntil || round >= 8) {
        return { allowed: false, retryAfterMs: Math.max(1, lease.emptyUntil - this.now()), remaining: 0 };
      }
      await io.wait(() =>
        lease.drawing === undefined ? this.refill(lease, io.draw) : this.drawInto(lease, io.draw, 1),
      );
    }
    lease.tokens -= 1;
    if (
      lease.tokens < leaseSizeOf(perMinute) / 2 &&
      lease.drawing === undefined &&
      this.now() >= lease.emptyUntil
    ) {
      const refill = this.refill(lease, io.draw);
      io.background(() => refill);
    }
    return { allowed: true, retryAfterMs: 0, remaining: Math.floor(lease.tokens) + lease.bucketRemaining };
  }

  /** Forgets every lease (tests). */
  clear(): void {
    this.leases.clear();
  }

  private leaseOf(key: string, perMinute: number): Lease {
    const now = this.now();
    let lease = this.leases.get(key);
    if (lease && lease.perMinute === perMinute && (lease.expiresAt > now || lease.drawing)) return lease;
    // A changed limit starts a fresh lease: the tokens of the old one are given up, never carried over.
    if (this.leases.size >= 10_000) this.leases.clear();
    lease = {
      perMinute,
      tokens: 0,
      expiresAt: now,
      bucketRemaining: 0,
      emptyUntil: 0,
      drawing: undefined,
    };
    this.leases.set(key, lease);
    return lease;
  }

  private refill(lease: Lease, draw: Draw): Promise<void> {
    const want = leaseSizeOf(lease.perMinute) - Math.floor(lease.tokens);
    const drawing = (async () => {
      try {
        await this.drawInto(lease, draw, Math.max(1, want));
      } finally {
        lease.drawing = undefined;
      }
    })();
    lease.drawing = drawing;
    return drawing;
  }

  /** Draws up to `want` tokens from the key's bucket into the lease. */
  private async drawInto(lease: Lease, draw: Draw, want: number): Promise<void> {
    const drawn = await draw(lease.perMinute, want);
    const now = this.now();
    lease.tokens += drawn.granted;
    lease.bucketRemaining = drawn.remaining;
    lease.emptyUntil = drawn.granted > 0 ? 0 : now + drawn.retryAfterMs;
    if (drawn.granted > 0) lease.expiresAt = now + leaseLifetimeMs;
  }
}
