import type { Context } from 'hono';
import type { DecideDeps } from '../approvals/decide-approval';
import { recordAudit } from '../audit/record-audit';
import type { AppEnv } from '../env';
import { logOriginOf } from '../log/log-settings';
import { serviceKeysOf } from '../receipts/service-keys';
import { countSetting } from '../settings';

/** What a decision by the calling key needs: POST /v1/approvals and a door's in-line `mcp_approval_response`. */
export async function decideDepsOf(c: Context<AppEnv>): Promise<DecideDeps> {
  const caller = c.get('caller');
  const keys = await serviceKeysOf(c.env, logOriginOf(c.env));
  return {
    db: c.env.DB,
    now: Date.now,
    tenant: caller.tenant,
    keyId: caller.keyId,
    issuer: keys.issuer,
    signingKey: keys.receiptKey,
    capabilityTtlMs: countSetting(c.env, 'CAPABILITY_TTL_MS'),
    recordAudit: (event) => recordAudit(c.env, event),
  };
}
