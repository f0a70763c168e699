import type { Context } from 'hono';
import { writeHealth, writeUsage } from '../background/write-behind';
import { type PrivacyLevel, privacyLevels } from '../contracts/reason-request';
import { randomHex } from '../encoding/random-token';
import type { AppEnv } from '../env';
import { readHealth, recordHealth, viewOrNone } from '../health/health-client';
import { healthStubOf } from '../health/health-stub';
import type { Observation } from '../health/health-types';
import { admitToBudget } from '../limits/admit-to-budget';
import { logOriginFor, logOriginOf } from '../log/log-settings';
import { catalogInForce } from '../policy/catalog-in-force';
import type { HealthView } from '../policy/plan-types';
import { abortableSleep } from '../providers/abortable-sleep';
import { toolCallGate } from '../reason/gate-tool-calls';
import type { HeldClaim } from '../reason/held-claim';
import { receiptHookFor } from '../reason/receipt-hook';
import type { IssueReceipt, ReasonDeps } from '../reason/run-reason';
import type { ServeDeps } from '../reason/serve-reason';
import { serviceKeysOf } from '../receipts/service-keys';
import { countSetting, textSetting } from '../settings';
import { insertHeldCalls } from '../storage/approvals';
import { countedD1, countedStub } from '../storage/round-trips';
import { stubByName } from '../storage/stub-by-name';
import { runInBackground } from './run-in-background';

/** DEFAULT_PRIVACY as a level; anything else reads as `internal`, never as `public`. */
function defaultPrivacyOf(text: string): PrivacyLevel {
  return (privacyLevels as readonly string[]).includes(text) ? (text as PrivacyLevel) : 'internal';
}

export interface ReasonContext {
  deps: ReasonDeps & { issueReceipt: IssueReceipt };
  /** Writes the attempts' outcomes to shared health, off the response path. */
  flushHealth: () => void;
}

/** The pipeline's dependencies in this Worker: catalog, secrets, bindings, tenant budget, shared health, receipts. */
export async function reasonContextOf(
  c: Context<AppEnv>,
  startedAt: number,
  claim?: HeldClaim,
): Promise<ReasonContext> {
  const { catalog, lookup, notConfigured } = catalogInForce(c.env);
  const trips = c.get('trips');
  const health = healthStubOf(c.env);
  // Reads the answer waits on are counted; the writes behind it use the plain stub.
  const awaitedHealth = countedStub(health, trips, 'do:health');
  const view: HealthView = viewOrNone(await readHealth(awaitedHealth, Date.now()), Date.now());
  const observations: Observation[] = [];
  const deps: ReasonContext['deps'] = {
    catalog,
    issueReceipt: receiptHookFor(
      c.env,
      c.get('caller').tenant,
      { trips, background: (work) => runInBackground(c, work) },
      claim,
    ),
    gateToolCalls: toolCallGate(async () => {
      const keys = await serviceKeysOf(c.env, logOriginOf(c.env));
      return {
        tenant: c.get('caller').tenant,
        issuer: keys.issuer,
        signingKey: keys.receiptKey,
        now: Date.now,
        capabilityTtlMs: countSetting(c.env, 'CAPABILITY_TTL_MS'),
        approvalWindowMs: countSetting(c.env, 'APPROVAL_WINDOW_MS'),
        keepHeld: (calls) => insertHeldCalls(countedD1(c.env.DB, trips, 'd1:approvals'), calls),
      };
    }),
    defaultPrivacy: defaultPrivacyOf(textSetting(c.env, 'DEFAULT_PRIVACY')),
    notConfigured,
    secret: (name) => {
      const value = lookup(name);
      return typeof value === 'string' && value !== '' ? value : undefined;
    },
    binding: lookup,
    fetch: (input, init) => fetch(input, init),
    now: () => performance.now(),
    startedAt,
    randomHex,
    admit: admitToBudget(c.env, c.get('caller').tenant, trips, (work) => runInBackground(c, work)),
    health: view,
    claimProbe: async (attempt) => {
      try {
        return await awaitedHealth.claimProbe(attempt.provider, attempt.model);
      } catch {
        return false;
      }
    },
    observe: (observation) => observations.push(observation),
    sleep: abortableSleep,
    random: Math.random,
  };
  const flushHealth = () => {
    if (observations.length === 0) return;
    const batch = observations.splice(0);
    // A failure, or the success of a model whose circuit was not closed, may move a circuit: written at
    // once (and this isolate's cached copy dropped); the rest share a batched write.
    const movesCircuit = batch.some(
      (o) =>
        !o.ok || view.circuit(o.provider, o.model) !== 'closed' || view.circuit(o.provider, '*') !== 'closed',
    );
    runInBackground(c, () =>
      movesCircuit ? recordHealth(health, batch, true) : writeHealth(c.env.MODEL_HEALTH, health, batch),
    );
  };
  return { deps, flushHealth };
}

/** Everything POST /v1/reason needs in this Worker: the caller, D1 claims and usage, the receipt hook. */
export function serveDepsOf(c: Context<AppEnv>): ServeDeps {
  const startedAt = c.get('arrivedAt') ?? performance.now();
  const caller = c.get('caller');
  const requestId = c.get('requestId');
  const logOf = (origin: string) =>
    countedStub(stubByName(c.env.RECEIPT_LOG, origin), c.get('trips'), 'do:log');
  return {
    caller,
    requestId,
    arrivedAt: Date.now(),
    claims: {
      db: countedD1(c.env.DB, c.get('trips'), 'd1:claim'),
      now: Date.now,
      sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
      waitMs: 30_000,
      appendOnce: async (origin, entry) => {
        const { index, proof } = await logOf(origin).appendOnce(entry);
        return { index, proof };
      },
      logOrigin: logOriginFor(c.env, caller.tenant, Date.now()),
      registerClaim: (origin, claim) => logOf(origin).registerClaim(claim),
      settleClaim: (origin, { tenant, rid }) =>
        runInBackground(c, () => stubByName(c.env.RECEIPT_LOG, origin).settleClaim({ tenant, rid })),
    },
    pipeline: (claim) => reasonContextOf(c, startedAt, claim),
    writeUsage: (record) => writeUsage(c.env.DB, record),
    background: (work) => runInBackground(c, work),
    body: { bytes: c.get('bodyBytes'), limit: countSetting(c.env, 'MAX_BODY_BYTES') },
  };
}
