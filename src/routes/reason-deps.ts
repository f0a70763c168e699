import type { Context } from 'hono';
import { writeHealth, writeUsage } from '../background/write-behind';
import { type PrivacyLevel, privacyLevels } from '../contracts/reason-request';
import { randomHex } from '../encoding/random-token';
import type { AppEnv } from '../env';
import { readHealth, recordHealth, viewOrNone } from '../health/health-client';
import { healthStubOf } from '../health/health-stub';
import type { Observation } from '../health/health-types';
import { createIssuance } from '../issuance/create-issuance';
import { admitToBudget } from '../limits/admit-to-budget';
import { logOriginOf } from '../log/log-settings';
import { catalogInForce } from '../policy/catalog-in-force';
import type { HealthView } from '../policy/plan-types';
import { abortableSleep } from '../providers/abortable-sleep';
import { toolCallGate } from '../reason/gate-tool-calls';
import type { ReasonDeps } from '../reason/prepare-reason';
import type { ServeDeps } from '../reason/serve-reason';
import { serviceKeysOf } from '../receipts/service-keys';
import { countSetting, textSetting } from '../settings';
import { insertHeldCalls } from '../storage/approvals';
import { countedD1, countedStub } from '../storage/round-trips';
import { runInBackground } from './run-in-background';

/** DEFAULT_PRIVACY as a level; anything else reads as `internal`, never as `public`. */
function defaultPrivacyOf(text: string): PrivacyLevel {
  return (privacyLevels as readonly string[]).includes(text) ? (text as PrivacyLevel) : 'internal';
}

/**
 * Everything POST /v1/reason does in this Worker besides its stages: the receipt (issuance/, with the
 * request's round trips counted), the model call (reasonContextOf), the usage record.
 */
export function serveDepsOf(c: Context<AppEnv>): ServeDeps {
  const startedAt = c.get('arrivedAt') ?? performance.now();
  const caller = c.get('caller');
  const background = (work: () => Promise<unknown> | undefined) => runInBackground(c, work);
  return {
    caller,
    requestId: c.get('requestId'),
    arrivedAt: Date.now(),
    issuance: createIssuance(c.env, caller.tenant, { trips: c.get('trips'), background }),
    pipeline: () => reasonContextOf(c, startedAt),
    writeUsage: (record) => writeUsage(c.env.DB, record),
    background,
    body: { bytes: c.get('bodyBytes'), limit: countSetting(c.env, 'MAX_BODY_BYTES') },
  };
}

export interface ReasonContext {
  deps: ReasonDeps;
  /** Writes the attempts' outcomes to shared health, off the response path. */
  flushHealth: () => void;
}

/** The model call's dependencies in this Worker: catalog, secrets, bindings, tenant budget, shared health. */
export async function reasonContextOf(c: Context<AppEnv>, startedAt: number): Promise<ReasonContext> {
  const { catalog, lookup, notConfigured } = catalogInForce(c.env);
  const trips = c.get('trips');
  const health = healthStubOf(c.env);
  // Reads the answer waits on are counted; the writes behind it use the plain stub.
  const awaitedHealth = countedStub(health, trips, 'do:health');
  const view: HealthView = viewOrNone(await readHealth(awaitedHealth, Date.now()), Date.now());
  const observations: Observation[] = [];
  const deps: ReasonContext['deps'] = {
    catalog,
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
