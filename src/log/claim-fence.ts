import type { LogAppend } from './log-batches';
import {
  type ClaimedAppend,
  type ClaimedEntry,
  type ClaimRegistration,
  type ClaimRow,
  claimRowOf,
  createClaimsTable,
  type LoggedClaim,
  loggedOf,
  markSaved,
  purgeClaims,
  recordClaimed,
  registerToken,
} from './log-claims';

// The fence of a caller's receiptId and its log append in one (log-claims.ts keeps its rows): calls
// for one (tenant, receiptId) are taken one at a time, each after the one on its way in has settled,
// so the shard answers "one logged receipt per id" whatever order holders and takers arrive in.

/** What the fence asks of the log: an idempotent append and a proof at the latest checkpoint. */
export interface FencedLog {
  appendOnce(entry: Uint8Array, record?: (index: number) => void): Promise<LogAppend>;
  proofOf(index: number): string | null;
}

/** A taker's claim on a receiptId. */
export interface ClaimTaker {
  tenant: string;
  rid: string;
  token: string;
  expiresAt: number;
}

/** The key of a tenant's receiptId among the claims on their way in. */
function claimKeyOf(claim: { tenant: string; rid: string }): string {
  return JSON.stringify([claim.tenant, claim.rid]);
}

type LoggedRow = ClaimRow & { idx: number };

export class ClaimFence {
  /** Claimed appends on their way in, by (tenant, receiptId): a registration or a rival waits for them. */
  private readonly inFlight = new Map<string, Promise<unknown>>();
  private lastPurge = 0;

  constructor(
    private readonly sql: SqlStorage,
    private readonly log: FencedLog,
  ) {
    createClaimsTable(sql);
  }

  /**
   * Logs the holder's receipt unless a receipt is already logged for (tenant, rid) (answered,
   * idempotently for the same token) or a taker registered another token (`lost`: nothing is logged).
   * The claim row is written in the same transaction as the leaf and its checkpoint.
   */
  async append(claim: ClaimedEntry): Promise<ClaimedAppend> {
    const key = claimKeyOf(claim);
    // Inline, so the last look at the in-flight map and taking the id happen in one synchronous step.
    for (let busy = this.inFlight.get(key); busy; busy = this.inFlight.get(key)) {
      await busy.catch(() => undefined);
    }
    const row = claimRowOf(this.sql, claim.tenant, claim.rid);
    if (row !== undefined && row.token !== claim.token) {
      // A taker's registered token refuses every older holder; an unregistered logged row is a
      // holder's own append, which a request that claimed the id afresh answers as the id's receipt.
      if (row.registered === 1 || row.idx === null) return { kind: 'lost' };
      return { kind: 'logged-by-other', logged: this.loggedAnswer(row as LoggedRow) };
    }
    if (row !== undefined && row.idx !== null) {
      const { index, proof } = this.loggedAnswer(row as LoggedRow);
      return { kind: 'appended', index, proof };
    }
    this.lastPurge = purgeClaims(this.sql, Date.now(), this.lastPurge);
    // The same signed entry, already logged by a recovery's appendOnce, gets its claim row then.
    const appended = this.log.appendOnce(claim.entry, (index) => recordClaimed(this.sql, claim, index));
    this.inFlight.set(key, appended);
    const forget = () => this.inFlight.delete(key);
    appended.then(forget, forget);
    const { index, proof } = await appended;
    return { kind: 'appended', index, proof };
  }

  /**
   * A taker's registration, on the takeover path only: answers the receipt already logged for
   * (tenant, rid), waiting for one on its way in, or registers the taker's token so the holder it took
   * the claim from can no longer log.
   */
  async register(claim: ClaimTaker): Promise<ClaimRegistration> {
    const key = claimKeyOf(claim);
    for (let busy = this.inFlight.get(key); busy; busy = this.inFlight.get(key)) {
      await busy.catch(() => undefined);
    }
    const row = claimRowOf(this.sql, claim.tenant, claim.rid);
    if (row !== undefined && row.idx !== null) {
      return { kind: 'logged', logged: this.loggedAnswer(row as LoggedRow) };
    }
    registerToken(this.sql, claim);
    return { kind: 'registered' };
  }

  /** Called once D1 holds the receipt of (tenant, rid): drops the shard's replay copy of it. */
  settle(claim: { tenant: string; rid: string }): void {
    markSaved(this.sql, claim.tenant, claim.rid);
  }

  private loggedAnswer(row: LoggedRow): LoggedClaim {
    return loggedOf(row, this.log.proofOf(row.idx) as string);
  }
}
