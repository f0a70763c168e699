import type { ClaimRegistration } from '../log/log-claims';

/** What a claim reaches: D1, the clock, and the log shards that fence it (built by create-issuance.ts). */
export interface ClaimDeps {
  db: D1Database;
  now: () => number;
  sleep: (ms: number) => Promise<void>;
  /** How long a duplicate waits for the first request before answering 409 `receipt.in_progress`. */
  waitMs: number;
  /** A log shard's idempotent append, to complete a receipt that was signed but not saved. */
  appendOnce: (origin: string, entry: Uint8Array) => Promise<{ index: number; proof: string }>;
  /** The log shard that fences the claims this deployment makes. */
  logOrigin: string;
  /** A taker's registration with the claim's log shard (the takeover path only). */
  registerClaim: (origin: string, claim: TakerClaim) => Promise<ClaimRegistration>;
  /** Behind the answer: lets the log shard drop its replay copy of a receipt D1 now holds. */
  settleClaim: (origin: string, claim: { tenant: string; rid: string }) => void;
}

export interface TakerClaim {
  tenant: string;
  rid: string;
  token: string;
  expiresAt: number;
}
