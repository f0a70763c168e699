import type { SignedCheckpoint } from './log-batches';
import { witnessDelayOf, witnessQuorumOf } from './log-settings';
import { LogWitnessing, type WitnessRound } from './log-witnessing';
import { parseWitnessList } from './witness-config';

// When a shard pushes to its witnesses (log-witnessing.ts pushes): a round LOG_WITNESS_DELAY_MS after
// a batch, by the object's alarm, at most one due at a time; a round some witness failed is retried
// later. Also what the log answers from the witnesses' cosignatures: the quorum's latest checkpoint.

/** How long a shard waits to push again after a witness failed a round (ms). */
export const WITNESS_RETRY_MS = 30_000;

/** The part of a Durable Object's storage witnessing uses. */
export interface WitnessStorage {
  readonly sql: SqlStorage;
  setAlarm(scheduledTime: number): Promise<void>;
}

/** The shard's tree as witnessing reads it (log-batches.ts). */
export interface WitnessedLog {
  readonly latest: SignedCheckpoint | undefined;
  readonly tree: { consistencyProof(from: number, to: number): Uint8Array[] };
}

export interface WitnessEnv {
  LOG_WITNESSES?: string;
  LOG_WITNESS_QUORUM?: string;
  LOG_WITNESS_DELAY_MS?: string;
}

export class WitnessRounds {
  /** LOG_WITNESSES as this shard pushes to them; null when none are configured (or the list is bad). */
  private witnessing: LogWitnessing | null | undefined;
  /** Whether a witnessing round is already due (an alarm set since the last round began). */
  private due = false;

  /** `origin` throws when the object's origin is not known; `send` is fetch but in tests. */
  constructor(
    private readonly storage: WitnessStorage,
    private readonly env: WitnessEnv,
    private readonly log: WitnessedLog,
    private readonly origin: () => string,
    private readonly send?: typeof fetch,
  ) {}

  /** The latest checkpoint cosigned by LOG_WITNESS_QUORUM witnesses; null without witnesses or one. */
  latestCosigned(): SignedCheckpoint | null {
    return this.witnessingOf()?.latestCosigned(witnessQuorumOf(this.env)) ?? null;
  }

  /** The checkpoint of `size` with its cosignatures; undefined when it has none. */
  cosignedAt(size: number): string | undefined {
    return this.witnessingOf()?.cosignedAt(size);
  }

  /** Pushes the latest checkpoint to the witnesses now; null when none are configured or nothing is logged. */
  round(): Promise<WitnessRound | null> {
    const witnessing = this.witnessingOf();
    const latest = this.log.latest;
    if (witnessing === null || latest === undefined || latest.size === 0) return Promise.resolve(null);
    return witnessing.round({
      latest: () => this.log.latest ?? latest,
      consistency: (from, to) => this.log.tree.consistencyProof(from, to),
    });
  }

  /** After a batch: a round LOG_WITNESS_DELAY_MS from now, unless one is already due. */
  schedule(): void {
    if (this.due || this.witnessingOf() === null) return;
    this.due = true;
    this.storage.setAlarm(Date.now() + witnessDelayOf(this.env)).catch(() => {
      this.due = false;
    });
  }

  /** The alarm's round; one some witness failed is due again WITNESS_RETRY_MS later. */
  async alarm(): Promise<void> {
    this.due = false;
    const round = await this.round();
    const failed = round?.outcomes.filter((o) => !o.ok) ?? [];
    if (failed.length === 0) return;
    console.warn(
      `log ${this.origin()}: witnessing size ${round?.size}: ${failed.map((o) => `${o.name} ${o.detail}`).join('; ')}`,
    );
    if (!this.due) {
      this.due = true;
      await this.storage.setAlarm(Date.now() + WITNESS_RETRY_MS);
    }
  }

  private witnessingOf(): LogWitnessing | null {
    if (this.witnessing === undefined) {
      const parsed = parseWitnessList(this.env.LOG_WITNESSES);
      if (!parsed.ok) console.error(`log ${this.origin()}: no witnessing: ${parsed.reason}`);
      this.witnessing =
        !parsed.ok || parsed.value.length === 0
          ? null
          : new LogWitnessing(this.storage.sql, parsed.value, this.send);
    }
    return this.witnessing;
  }
}
