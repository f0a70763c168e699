import { DurableObject } from 'cloudflare:workers';
import type { CheckResult } from '../encoding/check-result';
import { ClaimFence, type ClaimTaker } from './claim-fence';
import { type LogAppend, LogBatches } from './log-batches';
import type { ClaimedAppend, ClaimedEntry, ClaimRegistration } from './log-claims';
import { resolveLogOrigin } from './log-origin';
import {
  consistencyHashes,
  entryBundle,
  hashTile,
  inclusionHashes,
  type LogProofHashes,
  tlogProofAt,
} from './log-proofs';
import { logOriginOf } from './log-settings';
import { LogSigning } from './log-signing';
import type { WitnessRound } from './log-witnessing';
import { ShardRegistry } from './shard-registry';
import { WitnessRounds } from './witness-rounds';

function checkEntry(entry: unknown): asserts entry is Uint8Array {
  if (!(entry instanceof Uint8Array) || entry.length !== 32) {
    throw new TypeError('a log entry is a 32-byte hash');
  }
}

/**
 * One shard of the append-only log (RFC 6962 tree, C2SP checkpoints), named by its origin (the object's
 * name, see log-shards.ts): the RPC methods callers reach through a stub, each a guard and a call into
 * its part: appends and batches (log-batches.ts), claims (claim-fence.ts), signing (log-signing.ts),
 * witnessing (witness-rounds.ts), tiles and proofs (log-proofs.ts), the shard registry
 * (shard-registry.ts).
 */
export class ReceiptLog extends DurableObject<Env> {
  /** Whose log this is, from the object's storage (log-origin.ts); a refusal when that is not known. */
  private readonly originState: CheckResult<string>;
  private readonly batches: LogBatches;
  private readonly claims: ClaimFence;
  private readonly registry: ShardRegistry;
  private readonly witness: WitnessRounds;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    const origin = () => this.checkedOrigin();
    this.registry = new ShardRegistry(ctx.storage.sql, {
      origin,
      base: () => logOriginOf(this.env),
      registerWith: (base, self) => this.env.RECEIPT_LOG.getByName(base).registerShard(self),
    });
    this.batches = new LogBatches(ctx.storage, {
      signing: new LogSigning(origin, env),
      beforeBatch: () => this.registry.registerOnce(),
      afterBatch: () => this.witness.schedule(),
      proofOf: (index) => this.proofOf(index),
    });
    this.claims = new ClaimFence(ctx.storage.sql, {
      appendOnce: (entry, record) => this.batches.appendOnce(entry, record),
      proofOf: (index) => this.proofOf(index),
    });
    this.witness = new WitnessRounds(ctx.storage, env, this.batches, origin);
    this.originState = resolveLogOrigin(ctx.storage.sql, ctx.id.name, logOriginOf(env));
  }

  /**
   * The origin this object signs as. Throws when it is not known, so every entry point that appends,
   * signs or serves a checkpoint calls it first and refuses.
   */
  private checkedOrigin(): string {
    if (!this.originState.ok) throw new Error(`log object refused: ${this.originState.reason}`);
    return this.originState.value;
  }

  /** Appends one 32-byte entry hash (receipt or audit) and resolves once it is in a signed checkpoint. */
  append(entry: Uint8Array): Promise<LogAppend> {
    checkEntry(entry);
    this.checkedOrigin();
    return this.batches.append(entry);
  }

  /**
   * Appends an entry unless appendOnce already put it in (or is putting it in), and answers its index
   * with a proof at the latest checkpoint. A claimed receipt goes through here, so a retry that finds
   * it signed but not saved recovers its index instead of logging it twice.
   */
  appendOnce(entry: Uint8Array): Promise<LogAppend> {
    checkEntry(entry);
    this.checkedOrigin();
    return this.batches.appendOnce(entry);
  }

  /**
   * The fence of a caller's receiptId and its log append in one (claim-fence.ts): logs the holder's
   * receipt unless one is already logged for (tenant, rid) or a taker registered another token.
   */
  async appendClaimed(claim: ClaimedEntry): Promise<ClaimedAppend> {
    checkEntry(claim.entry);
    this.checkedOrigin();
    return this.claims.append(claim);
  }

  /** A taker's registration, on the takeover path only (claim-fence.ts). */
  async registerClaim(claim: ClaimTaker): Promise<ClaimRegistration> {
    return this.claims.register(claim);
  }

  /** Called once D1 holds the receipt of (tenant, rid): drops the shard's replay copy of it. */
  settleClaim(claim: { tenant: string; rid: string }): void {
    this.claims.settle(claim);
  }

  /**
   * On the deployment's own log: records that shard `origin` holds entries, so trust roots list it.
   * False, and nothing recorded, for an origin on another host.
   */
  registerShard(origin: string): boolean {
    return this.registry.register(origin);
  }

  /** On the deployment's own log: every shard that registered, sorted. */
  shards(): string[] {
    return this.registry.list();
  }

  /**
   * Entry `index`'s tlog-proof at the latest checkpoint cosigned by LOG_WITNESS_QUORUM witnesses that
   * holds it, with the cosignatures; without witnesses (or before one cosigned it), at the latest signed
   * checkpoint. Null when no checkpoint holds it.
   */
  proofOf(index: number): string | null {
    this.checkedOrigin();
    return tlogProofAt(this.batches.tree, index, this.batches.latest, () => this.witness.latestCosigned());
  }

  /** The latest signed checkpoint, with its cosignatures if it has any (an empty tree's is signed on first request). */
  async checkpoint(): Promise<string> {
    this.checkedOrigin();
    if (this.batches.latest === undefined) await this.batches.signEmpty();
    const latest = this.batches.latest as { size: number; note: string };
    return this.witness.cosignedAt(latest.size) ?? latest.note;
  }

  /**
   * The checkpoint the shard publishes at `/log/<shard>/checkpoint`: with witnesses, the latest one
   * cosigned by LOG_WITNESS_QUORUM of them (the latest signed one until a first is); else the latest.
   */
  async publishedCheckpoint(): Promise<string> {
    this.checkedOrigin();
    return this.witness.latestCosigned()?.note ?? (await this.checkpoint());
  }

  /** Pushes the latest checkpoint to the witnesses now; null when none are configured or nothing is logged. */
  async witnessRound(): Promise<WitnessRound | null> {
    this.checkedOrigin();
    return this.witness.round();
  }

  /** A witnessing round, LOG_WITNESS_DELAY_MS after a batch; a round some witness failed is retried later. */
  override async alarm(): Promise<void> {
    if (!this.originState.ok) {
      // Never pushed under a guessed origin, and not retried: nothing this object holds changes that.
      console.error(`log object ${this.ctx.id.toString()}: no witnessing: ${this.originState.reason}`);
      return;
    }
    await this.witness.alarm();
  }

  /** The size of the latest signed checkpoint. */
  size(): number {
    return this.batches.size();
  }

  /**
   * The C2SP hash tile (level, index) of `width` hashes, or null unless the latest checkpoint's tree
   * holds all of them.
   */
  tile(level: number, index: number, width: number): Uint8Array | null {
    return hashTile(this.batches.tree, this.size(), level, index, width);
  }

  /** The C2SP entry bundle `index` of `width` entries (uint16 length, then the 32-byte entry), or null. */
  entryBundle(index: number, width: number): Uint8Array | null {
    return entryBundle(this.ctx.storage.sql, this.size(), index, width);
  }

  inclusion(index: number, size: number): LogProofHashes | null {
    return inclusionHashes(this.batches.tree, this.size(), index, size);
  }

  consistency(from: number, to: number): LogProofHashes | null {
    return consistencyHashes(this.batches.tree, this.size(), from, to);
  }
}
