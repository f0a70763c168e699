import { lazyStub, stubByName } from '../storage/stub-by-name';
import type { HealthStub } from './health-client';

/** The one shared ModelHealth instance, by name, through its RPC methods; made when first called. */
export function healthStubOf(env: Env): HealthStub {
  return lazyStub(() => stubByName(env.MODEL_HEALTH, 'global'));
}
