import type { HealthStub } from './health-client';

/** The one shared ModelHealth instance, by name, through its RPC methods. */
export function healthStubOf(env: Env): HealthStub {
  return env.MODEL_HEALTH.getByName('global') as unknown as HealthStub;
}
