import { endLease, releaseClaim, renewLease } from '../storage/receipt-claims';

// A claim lives as long as its request: its holder renews a short lease every HEARTBEAT_MS while it
// runs, so a request may run for any time (no caller deadline is required) and still keep its id,
// while the claim of a request whose Worker died lapses within LEASE_MS and its exact retry takes it
// over. A lifetime derived from `maxLatencyMs` would leave requests without a deadline unbounded, and
// after a crash would make the retry wait out the whole deadline. The lease only decides when a
// retry may take over; safety comes from the fence (every write compares the holder's token).

export const LEASE_MS = 15_000;
export const HEARTBEAT_MS = 5_000;

/** The claim this request holds on its caller's `receiptId`. */
export interface HeldClaim {
  tenant: string;
  id: string;
  /** The fencing token every write of the holder compares, and the log shard compares on append. */
  token: string;
  /** The log shard that fences the claim and logs its receipt. */
  logOrigin: string;
  /** The request's digest (request-digest.ts) when the caller salted it, to seal the replay copy to; null otherwise. */
  requestDigest: Uint8Array | null;
  db: D1Database;
  now: () => number;
  /** Stops the heartbeat; the lease then runs out by itself. */
  stop: () => void;
  /**
   * Drops the pending claim after a failure (a no-op once signed, or once the claim is another's); once
   * the receipt went to the log, it only ends the lease, so the retry asks the log instead of the model.
   */
  release: () => Promise<void>;
  /** Marks the receipt as on its way to the log: from now on it may be the id's one. */
  logging: () => void;
}

/** Starts the heartbeat of a claim just taken. */
export function holdClaim(claim: Omit<HeldClaim, 'stop' | 'release' | 'logging'>): HeldClaim {
  const beat = setInterval(() => {
    renewLease(claim.db, claim.tenant, claim.id, claim.token, claim.now() + LEASE_MS).then(
      // Issued, released or taken over: there is nothing left to keep alive.
      (renewed) => renewed || stop(),
      () => undefined, // one missed beat; the lease outlasts two more
    );
  }, HEARTBEAT_MS);
  const stop = () => clearInterval(beat);
  let logging = false;
  return {
    ...claim,
    stop,
    release: async () => {
      stop();
      if (logging) await endLease(claim.db, claim.tenant, claim.id, claim.token);
      else await releaseClaim(claim.db, claim.tenant, claim.id, claim.token);
    },
    logging: () => {
      logging = true;
    },
  };
}

/** Ends a claim's lease now, so its retry need not wait; if this write fails too, it lapses by itself. */
export async function letGo(claim: HeldClaim, db = claim.db): Promise<void> {
  claim.stop();
  await endLease(db, claim.tenant, claim.id, claim.token).catch(() => undefined);
}
