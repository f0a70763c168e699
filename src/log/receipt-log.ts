import { DurableObject } from 'cloudflare:workers';
import { encodeBase64 } from '../encoding/base64';
import type { CheckResult } from '../encoding/check-result';
import { bytesToHex } from '../encoding/hex';
import { countSetting, textSetting } from '../settings';
import { AppendQueue, type QueuedAppend } from './append-queue';
import { type Checkpoint, signCheckpoint } from './checkpoint';
import {
  type ClaimedAppend,
  type ClaimedEntry,
  type ClaimRegistration,
  type ClaimRow,
  claimRowOf,
  createClaimsTable,
  loggedOf,
  markSaved,
  purgeClaims,
  recordClaimed,
  registerToken,
} from './log-claims';
import { resolveLogOrigin } from './log-origin';
import { parseLogOrigin, parseShardPolicy, type ShardPolicy, shardFor } from './log-shards';
import { LogWitnessing, type WitnessRound } from './log-witnessing';
import { leafHash } from './merkle';
import { MerkleTree } from './merkle-tree';
import { createNoteSigner, type NoteSigner } from './signed-note';
import { SqlNodeStore } from './sql-node-store';
import { TILE_WIDTH } from './tile-path';
import { formatTlogProof } from './tlog-proof';
import { parseWitnessList } from './witness-config';

/** What an append answers: the entry's index and its C2SP tlog-proof, which ends in the new checkpoint. */
export interface LogAppend {
  index: number;
  proof: string;
}

export interface LogProofHashes {
  hashes: string[];
}

function checkEntry(entry: unknown): asserts entry is Uint8Array {
  if (!(entry instanceof Uint8Array) || entry.length !== 32) {
    throw new TypeError('a log entry is a 32-byte hash');
  }
}

function validTile(level: number, index: number, width: number): boolean {
  return (
    Number.isSafeInteger(level) &&
    level >= 0 &&
    Number.isSafeInteger(index) &&
    index >= 0 &&
    Number.isInteger(width) &&
    width >= 1 &&
    width <= TILE_WIDTH
  );
}

function concatHashes(hashes: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(hashes.length * 32);
  hashes.forEach((hash, i) => {
    out.set(hash, i * 32);
  });
  return out;
}

/** How long a shard waits to push again after a witness failed a round (ms). */
const WITNESS_RETRY_MS = 30_000;

// A statement takes at most 100 bound parameters in a Durable Object's SQLite.
const ENTRIES_PER_INSERT = 48;

/**
 * The batch's entries, each at the index the tree gave its leaf (never a position counted apart from
 * the tree, so an entry bundle and the hash tiles cannot disagree), in as few statements as the
 * parameter limit allows.
 */
function insertEntries(sql: SqlStorage, batch: readonly { idx: number; entry: Uint8Array }[]): void {
  for (let at = 0; at < batch.length; at += ENTRIES_PER_INSERT) {
    const chunk = batch.slice(at, at + ENTRIES_PER_INSERT);
    const values = chunk.flatMap(({ idx, entry }) => [idx, entry]);
    sql.exec(
      `INSERT INTO log_entries (idx, entry) VALUES ${chunk.map(() => '(?, ?)').join(', ')}`,
      ...values,
    );
  }
}

/** The key of a tenant's receiptId among the claims on their way in. */
function claimKeyOf(claim: { tenant: string; rid: string }): string {
  return JSON.stringify([claim.tenant, claim.rid]);
}

/** The log origin (`<host>/log/<shard>`) this deployment writes; also the checkpoint key name. */
export function logOriginOf(env: { LOG_ORIGIN?: string }): string {
  return textSetting(env, 'LOG_ORIGIN');
}

/** `LOG_SHARDS`, parsed; a value that is no policy is a deployment error, never silently `single`. */
export function shardPolicyOf(env: { LOG_SHARDS?: string }): ShardPolicy {
  const text = textSetting(env, 'LOG_SHARDS');
  const policy = parseShardPolicy(text);
  if (policy === null) {
    throw new Error('LOG_SHARDS must be single, tenant-groups:<n> (1 to 256) or monthly');
  }
  return policy;
}

/** The origin of the shard a receipt of `tenant` issued at `atMs` is appended to. */
export function logOriginFor(
  env: { LOG_ORIGIN?: string; LOG_SHARDS?: string },
  tenant: string,
  atMs: number,
): string {
  return shardFor(shardPolicyOf(env), logOriginOf(env), { tenant, atMs });
}

/**
 * One shard of the append-only log (RFC 6962 tree, C2SP checkpoints), named by its origin (the object's
 * name, see log-shards.ts). Appends that arrive while a batch is being signed, or within a busy log's
 * batch window, wait for the next batch, which is written with its checkpoint in one transaction; then
 * each waiter gets its index and inclusion proof. One MerkleTree
 * lives in memory over the SQLite node table.
 */
export class ReceiptLog extends DurableObject<Env> {
  private readonly store: SqlNodeStore;
  private tree: MerkleTree;
  private latest: { size: number; note: string } | undefined;
  private readonly queue = new AppendQueue<LogAppend>((batch) => this.writeBatch(batch));
  private signer: Promise<NoteSigner> | undefined;
  /** Whose log this is, from the object's storage (log-origin.ts); a refusal when that is not known. */
  private readonly originState: CheckResult<string>;
  /** appendOnce entries on their way in, by leaf hash (hex), so a concurrent second call joins the first. */
  private readonly inFlight = new Map<string, Promise<LogAppend>>();
  /** Claimed appends on their way in, by (tenant, receiptId): a registration or a rival waits for them. */
  private readonly claimsInFlight = new Map<string, Promise<unknown>>();
  private lastClaimPurge = 0;
  /** A shard other than the deployment's own log registers with it before its first batch here. */
  private registered: Promise<void> | undefined;
  /** LOG_WITNESSES as this shard pushes to them; null when none are configured (or the list is bad). */
  private witnessing: LogWitnessing | null | undefined;
  /** Whether a witnessing round is already due (an alarm set since the last round began). */
  private witnessDue = false;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.store = new SqlNodeStore(ctx.storage.sql);
    ctx.storage.sql.exec(
      'CREATE TABLE IF NOT EXISTS log_checkpoints (size INTEGER PRIMARY KEY, note TEXT NOT NULL)',
    );
    ctx.storage.sql.exec(
      'CREATE TABLE IF NOT EXISTS log_once (leaf BLOB PRIMARY KEY, idx INTEGER NOT NULL) WITHOUT ROWID',
    );
    createClaimsTable(ctx.storage.sql);
    // Each entry as appended, for C2SP entry bundles (a log begun before this table serves none of its earlier ones).
    ctx.storage.sql.exec(
      'CREATE TABLE IF NOT EXISTS log_entries (idx INTEGER PRIMARY KEY, entry BLOB NOT NULL)',
    );
    // The registry of shards: kept by the deployment's own log object, empty in every other.
    ctx.storage.sql.exec('CREATE TABLE IF NOT EXISTS log_shards (origin TEXT PRIMARY KEY) WITHOUT ROWID');
    const row = ctx.storage.sql
      .exec<{ size: number; note: string }>(
        'SELECT size, note FROM log_checkpoints ORDER BY size DESC LIMIT 1',
      )
      .toArray()[0];
    this.latest = row;
    this.tree = new MerkleTree(this.store, row?.size ?? 0);
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
    return this.queue.enqueue({ entry });
  }

  /**
   * Appends an entry unless appendOnce already put it in (or is putting it in), and answers its index
   * with a proof at the latest checkpoint. A claimed receipt goes through here, so a retry that finds
   * it signed but not saved recovers its index instead of logging it twice.
   */
  appendOnce(entry: Uint8Array): Promise<LogAppend> {
    checkEntry(entry);
    this.checkedOrigin();
    const leaf = leafHash(entry);
    const key = bytesToHex(leaf);
    const pending = this.inFlight.get(key);
    if (pending !== undefined) return pending;
    const idx = this.onceIndexOf(leaf);
    const proof = idx === undefined ? null : this.proofOf(idx);
    if (idx !== undefined && proof !== null) return Promise.resolve({ index: idx, proof });
    const appended = this.queue.enqueue({ entry, once: leaf });
    this.inFlight.set(key, appended);
    const forget = () => this.inFlight.delete(key);
    appended.then(forget, forget);
    return appended;
  }

  /**
   * The fence of a caller's receiptId and its log append in one: logs the holder's receipt unless a
   * receipt is already logged for (tenant, rid) (answered, idempotently for the same token) or a taker
   * registered another token (`lost`: nothing is logged). The claim row is written in the same
   * transaction as the leaf and its checkpoint, and its leaf is known to appendOnce as well.
   */
  async appendClaimed(claim: ClaimedEntry): Promise<ClaimedAppend> {
    checkEntry(claim.entry);
    this.checkedOrigin();
    const key = claimKeyOf(claim);
    // Inline, so the last look at the in-flight map and taking the id happen in one synchronous step.
    for (let busy = this.claimsInFlight.get(key); busy; busy = this.claimsInFlight.get(key)) {
      await busy.catch(() => undefined);
    }
    const row = claimRowOf(this.ctx.storage.sql, claim.tenant, claim.rid);
    if (row !== undefined && row.token !== claim.token) {
      // A taker's registered token refuses every older holder; an unregistered logged row is a
      // holder's own append, which a request that claimed the id afresh answers as the id's receipt.
      if (row.registered === 1 || row.idx === null) return { kind: 'lost' };
      return { kind: 'logged-by-other', logged: this.loggedAnswer(row as ClaimRow & { idx: number }) };
    }
    if (row !== undefined && row.idx !== null) {
      const { index, proof } = this.loggedAnswer(row as ClaimRow & { idx: number });
      return { kind: 'appended', index, proof };
    }
    this.lastClaimPurge = purgeClaims(this.ctx.storage.sql, Date.now(), this.lastClaimPurge);
    const leaf = leafHash(claim.entry);
    const leafKey = bytesToHex(leaf);
    const record = (index: number) => recordClaimed(this.ctx.storage.sql, claim, index);
    const known = this.inFlight.has(leafKey) || this.onceIndexOf(leaf) !== undefined;
    // The same signed entry, already logged by a recovery's appendOnce, gets its claim row then.
    const appended = known
      ? this.appendOnce(claim.entry).then((once) => {
          record(once.index);
          return once;
        })
      : this.queue.enqueue({ entry: claim.entry, once: leaf, record });
    this.claimsInFlight.set(key, appended);
    if (!known) this.inFlight.set(leafKey, appended);
    const forget = () => {
      this.claimsInFlight.delete(key);
      if (!known) this.inFlight.delete(leafKey);
    };
    appended.then(forget, forget);
    const { index, proof } = await appended;
    return { kind: 'appended', index, proof };
  }

  /**
   * A taker's registration, on the takeover path only: answers the receipt already logged for
   * (tenant, rid), waiting for one on its way in, or registers the taker's token so the holder it took
   * the claim from can no longer log.
   */
  async registerClaim(claim: {
    tenant: string;
    rid: string;
    token: string;
    expiresAt: number;
  }): Promise<ClaimRegistration> {
    const key = claimKeyOf(claim);
    for (let busy = this.claimsInFlight.get(key); busy; busy = this.claimsInFlight.get(key)) {
      await busy.catch(() => undefined);
    }
    const row = claimRowOf(this.ctx.storage.sql, claim.tenant, claim.rid);
    if (row !== undefined && row.idx !== null) {
      return { kind: 'logged', logged: this.loggedAnswer(row as ClaimRow & { idx: number }) };
    }
    registerToken(this.ctx.storage.sql, claim);
    return { kind: 'registered' };
  }

  /** Called once D1 holds the receipt of (tenant, rid): drops the shard's replay copy of it. */
  settleClaim(claim: { tenant: string; rid: string }): void {
    markSaved(this.ctx.storage.sql, claim.tenant, claim.rid);
  }

  /**
   * On the deployment's own log: records that shard `origin` holds entries, so trust roots list it.
   * False, and nothing recorded, for an origin on another host.
   */
  registerShard(origin: string): boolean {
    const self = this.checkedOrigin();
    const own = parseLogOrigin(self);
    if (own === null || parseLogOrigin(origin)?.host !== own.host) return false;
    if (origin !== self) {
      this.ctx.storage.sql.exec('INSERT OR IGNORE INTO log_shards (origin) VALUES (?)', origin);
    }
    return true;
  }

  /** On the deployment's own log: every shard that registered, sorted. */
  shards(): string[] {
    return this.ctx.storage.sql
      .exec<{ origin: string }>('SELECT origin FROM log_shards ORDER BY origin')
      .toArray()
      .map((row) => row.origin);
  }

  /**
   * Before a shard's first batch in this object's life, its origin is registered with the deployment's
   * own log, so no entry is ever in a shard the trust root might not list. The deployment's own log,
   * and objects named otherwise (tests, benches), skip it: the default deployment makes no extra call.
   */
  private registerOnce(): Promise<void> {
    const base = logOriginOf(this.env);
    const self = this.checkedOrigin();
    if (self === base) return Promise.resolve();
    this.registered ??= this.env.RECEIPT_LOG.getByName(base)
      .registerShard(self)
      .then((ok) => {
        if (!ok) throw new Error(`${self} could not register with ${base}`);
      });
    this.registered.catch(() => {
      this.registered = undefined;
    });
    return this.registered;
  }

  private onceIndexOf(leaf: Uint8Array): number | undefined {
    return this.ctx.storage.sql
      .exec<{ idx: number }>('SELECT idx FROM log_once WHERE leaf = ?', leaf)
      .toArray()[0]?.idx;
  }

  private loggedAnswer(row: ClaimRow & { idx: number }) {
    return loggedOf(row, this.proofOf(row.idx) as string);
  }

  /**
   * Entry `index`'s tlog-proof at the latest checkpoint cosigned by LOG_WITNESS_QUORUM witnesses that
   * holds it, with the cosignatures; without witnesses (or before one cosigned it), at the latest signed
   * checkpoint. Null when no checkpoint holds it.
   */
  proofOf(index: number): string | null {
    this.checkedOrigin();
    const latest = this.latest;
    if (latest === undefined || !Number.isSafeInteger(index) || index < 0 || index >= latest.size)
      return null;
    const cosigned = this.witnessingOf()?.latestCosigned(this.witnessQuorum());
    const at = cosigned != null && index < cosigned.size ? cosigned : latest;
    const path = this.tree.inclusionProof(index, at.size);
    return formatTlogProof({ index, path, checkpoint: at.note });
  }

  /** The latest signed checkpoint, with its cosignatures if it has any (an empty tree's is signed on first request). */
  async checkpoint(): Promise<string> {
    this.checkedOrigin();
    if (this.latest === undefined) await this.append0();
    const latest = this.latest as { size: number; note: string };
    return this.witnessingOf()?.cosignedAt(latest.size) ?? latest.note;
  }

  /**
   * The checkpoint the shard publishes at `/log/<shard>/checkpoint`: with witnesses, the latest one
   * cosigned by LOG_WITNESS_QUORUM of them (the latest signed one until a first is); else the latest.
   */
  async publishedCheckpoint(): Promise<string> {
    this.checkedOrigin();
    const cosigned = this.witnessingOf()?.latestCosigned(this.witnessQuorum());
    return cosigned?.note ?? (await this.checkpoint());
  }

  /** Pushes the latest checkpoint to the witnesses now; null when none are configured or nothing is logged. */
  async witnessRound(): Promise<WitnessRound | null> {
    this.checkedOrigin();
    const witnessing = this.witnessingOf();
    const latest = this.latest;
    if (witnessing === null || latest === undefined || latest.size === 0) return null;
    return witnessing.round({
      latest: () => this.latest ?? latest,
      consistency: (from, to) => this.tree.consistencyProof(from, to),
    });
  }

  /** A witnessing round, LOG_WITNESS_DELAY_MS after a batch; a round some witness failed is retried later. */
  override async alarm(): Promise<void> {
    this.witnessDue = false;
    if (!this.originState.ok) {
      // Never pushed under a guessed origin, and not retried: nothing this object holds changes that.
      console.error(`log object ${this.ctx.id.toString()}: no witnessing: ${this.originState.reason}`);
      return;
    }
    const round = await this.witnessRound();
    const failed = round?.outcomes.filter((o) => !o.ok) ?? [];
    if (failed.length === 0) return;
    console.warn(
      `log ${this.checkedOrigin()}: witnessing size ${round?.size}: ${failed.map((o) => `${o.name} ${o.detail}`).join('; ')}`,
    );
    if (!this.witnessDue) {
      this.witnessDue = true;
      await this.ctx.storage.setAlarm(Date.now() + WITNESS_RETRY_MS);
    }
  }

  private witnessingOf(): LogWitnessing | null {
    if (this.witnessing === undefined) {
      const parsed = parseWitnessList(this.env.LOG_WITNESSES);
      if (!parsed.ok) console.error(`log ${this.checkedOrigin()}: no witnessing: ${parsed.reason}`);
      this.witnessing =
        !parsed.ok || parsed.value.length === 0
          ? null
          : new LogWitnessing(this.ctx.storage.sql, parsed.value);
    }
    return this.witnessing;
  }

  private witnessQuorum(): number {
    return countSetting(this.env, 'LOG_WITNESS_QUORUM');
  }

  private scheduleWitnessing(): void {
    if (this.witnessDue || this.witnessingOf() === null) return;
    this.witnessDue = true;
    this.ctx.storage.setAlarm(Date.now() + countSetting(this.env, 'LOG_WITNESS_DELAY_MS')).catch(() => {
      this.witnessDue = false;
    });
  }

  /** The size of the latest signed checkpoint. */
  size(): number {
    return this.latest?.size ?? 0;
  }

  /**
   * The C2SP hash tile (level, index) of `width` hashes, or null unless the latest checkpoint's tree
   * holds all of them. Level l's hashes are the tree's complete subtrees of 256^l leaves.
   */
  tile(level: number, index: number, width: number): Uint8Array | null {
    const size = this.size();
    if (!validTile(level, index, width) || level > 63) return null;
    const complete = Math.floor(size / TILE_WIDTH ** level);
    if (index * TILE_WIDTH + width > complete) return null;
    return concatHashes(this.tree.nodes(8 * level, index * TILE_WIDTH, width));
  }

  /** The C2SP entry bundle `index` of `width` entries (uint16 length, then the 32-byte entry), or null. */
  entryBundle(index: number, width: number): Uint8Array | null {
    if (!validTile(0, index, width) || index * TILE_WIDTH + width > this.size()) return null;
    const start = index * TILE_WIDTH;
    const rows = this.ctx.storage.sql
      .exec<{ entry: ArrayBuffer }>(
        'SELECT entry FROM log_entries WHERE idx >= ? AND idx < ? ORDER BY idx',
        start,
        start + width,
      )
      .toArray();
    if (rows.length !== width) return null;
    const out = new Uint8Array(width * 34);
    rows.forEach((row, i) => {
      const entry = new Uint8Array(row.entry);
      out[i * 34] = entry.length >> 8;
      out[i * 34 + 1] = entry.length & 0xff;
      out.set(entry, i * 34 + 2);
    });
    return out;
  }

  inclusion(index: number, size: number): LogProofHashes | null {
    if (!this.inRange(size) || !Number.isSafeInteger(index) || index < 0 || index >= size) return null;
    return { hashes: this.tree.inclusionProof(index, size).map(encodeBase64) };
  }

  consistency(from: number, to: number): LogProofHashes | null {
    if (!this.inRange(to) || !Number.isSafeInteger(from) || from < 1 || from > to) return null;
    return { hashes: this.tree.consistencyProof(from, to).map(encodeBase64) };
  }

  private inRange(size: number): boolean {
    return Number.isSafeInteger(size) && size >= 1 && size <= this.size();
  }

  private async append0(): Promise<void> {
    const note = await signCheckpoint(
      { origin: this.checkedOrigin(), size: 0, root: this.tree.root(0), extensions: [] },
      await this.signerOf(),
    );
    if (this.latest !== undefined) return; // a batch landed meanwhile
    this.ctx.storage.sql.exec('INSERT OR IGNORE INTO log_checkpoints (size, note) VALUES (0, ?)', note);
    this.latest = { size: 0, note };
  }

  private signerOf(): Promise<NoteSigner> {
    this.signer ??= createNoteSigner(this.checkedOrigin(), this.env.LOG_SIGNING_KEY);
    this.signer.catch(() => {
      this.signer = undefined;
    });
    return this.signer;
  }

  private async writeBatch(batch: QueuedAppend<LogAppend>[]): Promise<void> {
    const startSize = this.tree.size;
    try {
      const signer = await this.signerOf();
      await this.registerOnce();
      const indices = batch.map((w) => this.tree.append(leafHash(w.entry)));
      const checkpoint: Checkpoint = {
        origin: this.checkedOrigin(),
        size: this.tree.size,
        root: this.tree.root(),
        extensions: [],
      };
      // Appends that arrive while this signature is computed queue up for the next batch.
      const note = await signCheckpoint(checkpoint, signer);
      this.ctx.storage.transactionSync(() => {
        this.store.commit();
        this.ctx.storage.sql.exec(
          'INSERT INTO log_checkpoints (size, note) VALUES (?, ?)',
          checkpoint.size,
          note,
        );
        insertEntries(
          this.ctx.storage.sql,
          batch.map((waiter, i) => ({ idx: indices[i] as number, entry: waiter.entry })),
        );
        batch.forEach((waiter, i) => {
          if (waiter.once) {
            this.ctx.storage.sql.exec(
              'INSERT INTO log_once (leaf, idx) VALUES (?, ?)',
              waiter.once,
              indices[i] as number,
            );
          }
          waiter.record?.(indices[i] as number);
        });
      });
      this.latest = { size: checkpoint.size, note };
      this.scheduleWitnessing();
      // The batch's proofs share most of their hashes (the same node objects), so each is encoded once.
      const encoded = new Map<Uint8Array, string>();
      const encode = (hash: Uint8Array) => {
        let text = encoded.get(hash);
        if (text === undefined) {
          text = encodeBase64(hash);
          encoded.set(hash, text);
        }
        return text;
      };
      batch.forEach((waiter, i) => {
        const index = indices[i] as number;
        const path = this.tree.inclusionProof(index, checkpoint.size);
        waiter.resolve({ index, proof: formatTlogProof({ index, path, checkpoint: note }, encode) });
      });
    } catch (error) {
      this.store.rollback();
      this.tree = new MerkleTree(this.store, startSize);
      for (const waiter of batch) waiter.reject(error);
    }
  }
}
