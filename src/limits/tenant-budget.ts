import { DurableObject } from 'cloudflare:workers';

export interface BudgetStatus {
  month: string;
  capUsd: number | null;
  spentUsd: number;
  reservedUsd: number;
  remainingUsd: number | null;
}

export type Reservation =
  /** `id` is null for a tenant without a cap: nothing is reserved, and settling is a no-op. */
  | { ok: true; id: string | null; amountUsd: number; capped: boolean }
  | { ok: false; capUsd: number; spentUsd: number; reservedUsd: number };

/** A reservation no request can still be using (requests end within 10 minutes) is released. */
const reservationLifetimeMs = 15 * 60_000;

function monthOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 7);
}

/**
 * A tenant's monthly spend cap. One Durable Object per tenant is the single writer, so concurrent
 * requests reserve their worst case one at a time and can never overspend together; each request
 * then settles to its actual cost.
 */
export class TenantBudget extends DurableObject<Env> {
  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    ctx.storage.sql.exec(`
      CREATE TABLE IF NOT EXISTS settings (name TEXT PRIMARY KEY, value REAL);
      CREATE TABLE IF NOT EXISTS spend (month TEXT PRIMARY KEY, spent_usd REAL NOT NULL);
      CREATE TABLE IF NOT EXISTS reservations (id TEXT PRIMARY KEY, month TEXT NOT NULL, amount_usd REAL NOT NULL, created_at INTEGER NOT NULL);
    `);
  }

  /**
   * Sets or removes the cap. Spend is only tracked here while a cap exists, so a new cap starts from
   * `spentThisMonthUsd`, what the usage records say the tenant already spent this month.
   */
  setCap(capUsd: number | null, spentThisMonthUsd: number): BudgetStatus {
    const sql = this.ctx.storage.sql;
    if (capUsd === null) {
      sql.exec("DELETE FROM settings WHERE name = 'cap_usd'");
      return this.status();
    }
    const month = monthOf(Date.now());
    this.ctx.storage.transactionSync(() => {
      if (this.cap() === null) {
        sql.exec(
          'INSERT INTO spend (month, spent_usd) VALUES (?, ?) ON CONFLICT(month) DO UPDATE SET spent_usd = MAX(spent_usd, excluded.spent_usd)',
          month,
          Math.max(0, spentThisMonthUsd),
        );
      }
      sql.exec("INSERT OR REPLACE INTO settings (name, value) VALUES ('cap_usd', ?)", capUsd);
    });
    return this.status();
  }

  status(): BudgetStatus {
    const now = Date.now();
    this.release(now);
    const month = monthOf(now);
    const capUsd = this.cap();
    const spentUsd = this.spent(month);
    const reservedUsd = this.reserved(month);
    return {
      month,
      capUsd,
      spentUsd,
      reservedUsd,
      remainingUsd: capUsd === null ? null : Math.max(0, capUsd - spentUsd - reservedUsd),
    };
  }

  /**
   * Adds up to `wantedUsd`, at least `minimumUsd`, of what is left to an isolate's lease (a standing
   * reservation its requests draw on locally), or opens one when `leaseId` is null or was released:
   * under `leaseId` when no reservation ever had that id (so an isolate's concurrent first draws all
   * land in one), else under a fresh id. The answer names the reservation's id.
   */
  drawLease(leaseId: string | null, wantedUsd: number, minimumUsd: number): Reservation {
    const now = Date.now();
    this.release(now);
    const month = monthOf(now);
    const capUsd = this.cap();
    if (capUsd === null) return { ok: true, id: null, amountUsd: wantedUsd, capped: false };
    const spentUsd = this.spent(month);
    const reservedUsd = this.reserved(month);
    const left = capUsd - spentUsd - reservedUsd;
    if (left <= 0 || left < minimumUsd) return { ok: false, capUsd, spentUsd, reservedUsd };
    const amountUsd = Math.min(wantedUsd, left);
    const sql = this.ctx.storage.sql;
    // The asked id's reservation, if any: held this month (the lease grows), or of another month (a
    // fresh id, so that month's figures stay its own).
    const existing =
      leaseId === null
        ? undefined
        : sql.exec<{ month: string }>('SELECT month FROM reservations WHERE id = ?', leaseId).toArray()[0];
    if (leaseId !== null && existing?.month === month) {
      sql.exec(
        'UPDATE reservations SET amount_usd = amount_usd + ?, created_at = ? WHERE id = ?',
        amountUsd,
        now,
        leaseId,
      );
      return { ok: true, id: leaseId, amountUsd, capped: true };
    }
    const id = leaseId !== null && existing === undefined ? leaseId : crypto.randomUUID();
    sql.exec(
      'INSERT INTO reservations (id, month, amount_usd, created_at) VALUES (?, ?, ?, ?)',
      id,
      month,
      amountUsd,
      now,
    );
    return { ok: true, id, amountUsd, capped: true };
  }

  /**
   * Settles part of a lease: `spentUsd` of it becomes spend and `releaseUsd` goes back to what is
   * left. Deltas, not totals, so a settlement and a draw of the same lease may arrive in any order.
   */
  settleLease(leaseId: string, spentUsd: number, releaseUsd: number): void {
    const sql = this.ctx.storage.sql;
    const row = sql
      .exec<{ month: string }>('SELECT month FROM reservations WHERE id = ?', leaseId)
      .toArray()[0];
    const month = row?.month ?? monthOf(Date.now());
    this.ctx.storage.transactionSync(() => {
      sql.exec(
        'UPDATE reservations SET amount_usd = MAX(0, amount_usd - ?), created_at = ? WHERE id = ?',
        Math.max(0, spentUsd) + Math.max(0, releaseUsd),
        Date.now(),
        leaseId,
      );
      sql.exec('DELETE FROM reservations WHERE id = ? AND amount_usd <= 1e-12', leaseId);
      sql.exec(
        'INSERT INTO spend (month, spent_usd) VALUES (?, ?) ON CONFLICT(month) DO UPDATE SET spent_usd = spent_usd + excluded.spent_usd',
        month,
        Math.max(0, spentUsd),
      );
    });
  }

  private cap(): number | null {
    const row = this.ctx.storage.sql
      .exec<{ value: number }>("SELECT value FROM settings WHERE name = 'cap_usd'")
      .toArray()[0];
    return row ? row.value : null;
  }

  private spent(month: string): number {
    const row = this.ctx.storage.sql
      .exec<{ spent_usd: number }>('SELECT spent_usd FROM spend WHERE month = ?', month)
      .toArray()[0];
    return row?.spent_usd ?? 0;
  }

  private reserved(month: string): number {
    const row = this.ctx.storage.sql
      .exec<{ total: number | null }>(
        'SELECT SUM(amount_usd) AS total FROM reservations WHERE month = ?',
        month,
      )
      .toArray()[0];
    return row?.total ?? 0;
  }

  private release(now: number): void {
    this.ctx.storage.sql.exec('DELETE FROM reservations WHERE created_at < ?', now - reservationLifetimeMs);
  }
}
