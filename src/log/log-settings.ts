import { countSetting, textSetting } from '../settings';
import { parseShardPolicy, type ShardPolicy, shardFor } from './log-shards';

// The log's settings as the code reads them (defaults in settings.ts): which origin this deployment
// writes, how it shards, and how many witnesses make a quorum and how soon a round follows a batch.

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

/** How many witness cosignatures make a checkpoint the published one. */
export function witnessQuorumOf(env: { LOG_WITNESS_QUORUM?: string }): number {
  return countSetting(env, 'LOG_WITNESS_QUORUM');
}

/** How long after a batch its shard pushes to the witnesses (ms). */
export function witnessDelayOf(env: { LOG_WITNESS_DELAY_MS?: string }): number {
  return countSetting(env, 'LOG_WITNESS_DELAY_MS');
}
