import { DurableObject } from 'cloudflare:workers';
import { countSetting } from '../settings';
import { applyObservation, type Cooldowns, claimProbe, summarize } from './apply-observation';
import type { HealthRecord, HealthSnapshot, Observation } from './health-types';
import { healthKey } from './health-types';

const schemaVersion = 1;

/**
 * The cooldowns, from `CIRCUIT_COOLDOWN_MS` (a model's circuit) and `PROVIDER_CIRCUIT_COOLDOWN_MS` (a
 * provider's, after a bad key or exhausted quota); the defaults when unset.
 */
export function cooldownsOf(
  env: Partial<Pick<Env, 'CIRCUIT_COOLDOWN_MS' | 'PROVIDER_CIRCUIT_COOLDOWN_MS'>>,
): Cooldowns {
  return {
    model: countSetting(env, 'CIRCUIT_COOLDOWN_MS'),
    provider: countSetting(env, 'PROVIDER_CIRCUIT_COOLDOWN_MS'),
  };
}

function scopeOf(key: string): 'model' | 'provider' {
  return key.endsWith('/*') ? 'provider' : 'model';
}

/**
 * Shared model health: one instance (`getByName('global')`) holds, per `provider/model` and
 * `provider/*`, moving latency estimates, an error rate and a circuit breaker. SQLite-backed, read
 * into memory once; reached by RPC. Requests record outcomes through `ctx.waitUntil`, off the
 * response path, and read a snapshot through a short per-isolate cache (health-client.ts).
 */
export class ModelHealth extends DurableObject<Env> {
  private readonly records = new Map<string, HealthRecord>();
  private readonly cooldowns: Cooldowns;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.cooldowns = cooldownsOf(env);
    ctx.blockConcurrencyWhile(async () => {
      const sql = ctx.storage.sql;
      sql.exec('CREATE TABLE IF NOT EXISTS health_meta (version INTEGER NOT NULL)');
      const row = sql.exec<{ version: number }>('SELECT version FROM health_meta').toArray()[0];
      if (!row) {
        sql.exec(
          'CREATE TABLE IF NOT EXISTS model_health (key TEXT PRIMARY KEY, record TEXT NOT NULL, updated_at INTEGER NOT NULL)',
        );
        sql.exec('INSERT INTO health_meta (version) VALUES (?)', schemaVersion);
      }
      for (const { key, record } of sql.exec<{ key: string; record: string }>(
        'SELECT key, record FROM model_health',
      )) {
        this.records.set(key, JSON.parse(record) as HealthRecord);
      }
    });
  }

  private save(key: string, record: HealthRecord): void {
    this.records.set(key, record);
    this.ctx.storage.sql.exec(
      'INSERT INTO model_health (key, record, updated_at) VALUES (?, ?, ?) ON CONFLICT (key) DO UPDATE SET record = excluded.record, updated_at = excluded.updated_at',
      key,
      JSON.stringify(record),
      record.updatedAt,
    );
  }

  /** Records attempt outcomes. */
  record(observations: Observation[]): void {
    const now = Date.now();
    for (const observation of observations) {
      const key = healthKey(observation.provider, observation.model);
      this.save(key, applyObservation(this.records.get(key), observation, now, 'model'));
      const providerKey = healthKey(observation.provider, '*');
      const providerRecord = this.records.get(providerKey);
      if (observation.openProviderCircuit || (observation.ok && providerRecord?.openedAt !== undefined)) {
        this.save(providerKey, applyObservation(providerRecord, observation, now, 'provider'));
      }
    }
  }

  /** Every key's circuit and estimates, as of now. */
  snapshot(): HealthSnapshot {
    const now = Date.now();
    const models: HealthSnapshot['models'] = {};
    for (const [key, record] of this.records)
      models[key] = summarize(record, now, scopeOf(key), this.cooldowns);
    return { at: now, models };
  }

  /** The single probe of a half-open circuit: true for exactly one caller until it reports back. */
  claimProbe(provider: string, model: string): boolean {
    const now = Date.now();
    let granted = false;
    for (const key of [healthKey(provider, '*'), healthKey(provider, model)]) {
      const result = claimProbe(this.records.get(key), now, scopeOf(key), this.cooldowns);
      if (result.granted && result.record) {
        this.save(key, result.record);
        granted = true;
      }
    }
    return granted;
  }
}
