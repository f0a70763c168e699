import { Hono } from 'hono';
import { reasonRequestSchema } from '../contracts/reason-request';
import type { AppEnv } from '../env';
import { readHealth, viewOrNone } from '../health/health-client';
import { healthStubOf } from '../health/health-stub';
import type { Observation } from '../health/health-types';
import { requireJson, validJson } from '../middleware/json-body';
import { requireKey } from '../middleware/require-key';
import { configuredProviders } from '../policy/configured-providers';
import { loadCatalog } from '../policy/load-catalog';
import { abortableSleep } from '../providers/abortable-sleep';
import { randomHex } from '../random-token';
import { runReason } from '../reason/run-reason';
import { runInBackground } from './run-in-background';

export const reasonRoutes = new Hono<AppEnv>().post(
  '/reason',
  requireKey('reason'),
  requireJson,
  validJson(reasonRequestSchema),
  async (c) => {
    const startedAt = performance.now();
    const env = c.env as unknown as Record<string, unknown>;
    const catalog = loadCatalog(c.env.VALVE_CATALOG);
    const health = healthStubOf(c.env);
    const observations: Observation[] = [];
    try {
      const response = await runReason(c.req.valid('json'), {
        catalog,
        notConfigured: configuredProviders(catalog, (name) => env[name]),
        secret: (name) =>
          typeof env[name] === 'string' && env[name] !== '' ? (env[name] as string) : undefined,
        fetch: (input, init) => fetch(input, init),
        now: () => performance.now(),
        startedAt,
        randomHex,
        health: viewOrNone(await readHealth(health, Date.now())),
        claimProbe: async (attempt) => {
          try {
            return await health.claimProbe(attempt.provider, attempt.model);
          } catch {
            return false;
          }
        },
        observe: (observation) => observations.push(observation),
        sleep: abortableSleep,
        random: Math.random,
      });
      return c.json(response);
    } finally {
      if (observations.length > 0) runInBackground(c, async () => health.record(observations));
    }
  },
);
