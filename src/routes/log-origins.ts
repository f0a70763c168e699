import type { TrustRoot } from '../contracts/trust-root';
import { ApiError } from '../errors';
import { logOriginOf, shardPolicyOf } from '../log/log-settings';
import { listedShards } from '../log/log-shards';
import { serviceKeysOf, trustRootListing } from '../receipts/service-keys';

// The deployment's log shards as the public sees them: the trust root lists every one (its own log,
// the policy's shards, every shard that ever took an entry), and /v1/log/* answers for those only.

/** Every origin the trust root lists, the deployment's own first. */
export async function listedOriginsOf(env: Env, atMs = Date.now()): Promise<string[]> {
  const base = logOriginOf(env);
  const registered = await env.RECEIPT_LOG.getByName(base).shards();
  return listedShards(shardPolicyOf(env), base, atMs, registered);
}

/** The trust root an auditor pins: receipt keys, and every listed shard with its verifier key. */
export async function trustRootOf(env: Env): Promise<TrustRoot> {
  const [keys, origins] = await Promise.all([serviceKeysOf(env, logOriginOf(env)), listedOriginsOf(env)]);
  return trustRootListing(keys, origins);
}

/**
 * The shard a `/v1/log/*` request names (`?origin=`), or the deployment's own log; an origin the trust
 * root does not list is 404, never a new, empty log object made on a stranger's request.
 */
export async function requestedOriginOf(env: Env, origin: string | undefined): Promise<string> {
  const base = logOriginOf(env);
  if (origin === undefined || origin === base) return base;
  if (!(await listedOriginsOf(env)).includes(origin)) {
    throw new ApiError(
      'request.not_found',
      'This deployment lists no log with that origin; GET /v1/trust-root lists its logs.',
    );
  }
  return origin;
}
