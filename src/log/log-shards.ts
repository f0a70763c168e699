// Log shards. Valve's log can be split, as certificate-transparency logs are, into several independent
// logs — one per tenant group or per time window — each its own ReceiptLog Durable Object with its own
// tree and its own signed checkpoints. A shard is named by its origin, `<host>/log/<shard>`: the
// origin is the checkpoint's first line and the note's key name, so every proof says, under the log's
// signature, which shard its entry is in, and an auditor keys what it holds by origin.
//
// `LOG_SHARDS` picks the policy: `single` writes `LOG_ORIGIN` alone (the default), the others pick the
// shard of each receipt below. Every shard that takes an entry registers itself with the deployment's
// own log object (shard-registry.ts), so the trust root lists it forever, whatever the policy becomes.

const ORIGIN = /^([A-Za-z0-9.-]+(?::[0-9]{1,5})?)\/log\/([A-Za-z0-9._-]{1,64})$/;
const SHARD = /^[A-Za-z0-9._-]{1,64}$/;

export interface LogOrigin {
  host: string;
  shard: string;
}

export type ShardPolicy =
  | { kind: 'single' }
  /** A fixed number of shards; a tenant always lands in the same one (`g0` … `g<n-1>`). */
  | { kind: 'tenant-groups'; groups: number }
  /** One shard per UTC month (`2026-12`): old shards stop growing and can be archived whole. */
  | { kind: 'monthly' };

export function parseLogOrigin(origin: string): LogOrigin | null {
  const match = ORIGIN.exec(origin);
  return match ? { host: match[1] as string, shard: match[2] as string } : null;
}

/** The origin of `shard` on the same host as `base`. */
export function shardOrigin(base: string, shard: string): string {
  const parsed = parseLogOrigin(base);
  if (parsed === null) throw new RangeError(`${base} is not a log origin (<host>/log/<shard>)`);
  if (!SHARD.test(shard)) throw new RangeError(`${shard} is not a shard name`);
  return `${parsed.host}/log/${shard}`;
}

/** FNV-1a over the tenant's UTF-16 code units: stable across isolates and releases, and cheap. */
function tenantHash(tenant: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < tenant.length; i++) {
    hash ^= tenant.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

const month = (atMs: number) => new Date(atMs).toISOString().slice(0, 7);

/** The origin of the shard an entry for `tenant` appended at `atMs` goes to. */
export function shardFor(policy: ShardPolicy, base: string, entry: { tenant: string; atMs: number }): string {
  switch (policy.kind) {
    case 'single':
      return base;
    case 'tenant-groups':
      return shardOrigin(base, `g${tenantHash(entry.tenant) % policy.groups}`);
    case 'monthly':
      return shardOrigin(base, month(entry.atMs));
  }
}

/**
 * The shards a trust root published at `atMs` lists: every group, or this month's and the next, so
 * that an auditor who pinned the root before a month turns already holds the new shard's key.
 */
export function publishedShards(policy: ShardPolicy, base: string, atMs: number): string[] {
  switch (policy.kind) {
    case 'single':
      return [base];
    case 'tenant-groups':
      return Array.from({ length: policy.groups }, (_, g) => shardOrigin(base, `g${g}`));
    case 'monthly': {
      const now = new Date(atMs);
      const next = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
      return [shardOrigin(base, month(atMs)), shardOrigin(base, month(next))];
    }
  }
}

/**
 * The origin a ReceiptLog object named `name` signs with: its name when that is a shard of the
 * deployment's log (same host as `LOG_ORIGIN`), else the deployment's origin — objects named otherwise
 * (tests, benches) stay the one log they always were. An object without a name takes its origin from
 * its storage alone (log-origin.ts), never from here.
 */
export function originOfName(name: string, deploymentOrigin: string): string {
  const own = parseLogOrigin(name);
  const deployment = parseLogOrigin(deploymentOrigin);
  return own !== null && deployment !== null && own.host === deployment.host ? name : deploymentOrigin;
}

/** The largest `tenant-groups:<n>`: more groups than this is more objects than a trust root should list. */
export const MAX_TENANT_GROUPS = 256;

/** `LOG_SHARDS`: `single`, `tenant-groups:<n>` (1 to 256) or `monthly`; anything else is null. */
export function parseShardPolicy(text: string): ShardPolicy | null {
  if (text === 'single') return { kind: 'single' };
  if (text === 'monthly') return { kind: 'monthly' };
  const groups = /^tenant-groups:([1-9][0-9]{0,2})$/.exec(text);
  const n = groups ? Number(groups[1]) : 0;
  return n >= 1 && n <= MAX_TENANT_GROUPS ? { kind: 'tenant-groups', groups: n } : null;
}

/**
 * Every origin a trust root published at `atMs` lists: the deployment's own origin (the `single`
 * log, and the audit trail's, whatever the policy), the shards the policy writes or is about to, and
 * every shard that ever took an entry (`registered`), so a switch of policy orphans no receipt.
 * Only origins on the deployment's host are kept; the deployment's own comes first.
 */
export function listedShards(
  policy: ShardPolicy,
  base: string,
  atMs: number,
  registered: readonly string[],
): string[] {
  const host = parseLogOrigin(base)?.host;
  const others = [...publishedShards(policy, base, atMs), ...registered].filter(
    (origin) => origin !== base && parseLogOrigin(origin)?.host === host,
  );
  return [base, ...[...new Set(others)].sort()];
}
