import { registeredErrorCodes } from '../errors';

/**
 * What a request the pipeline runs can fail with beyond its body: limits, budget, planning, every
 * model failure, an idempotent retry's conflicts, and an unavailable store (the door adds its own).
 */
export const pipelineErrors: readonly string[] = [
  'limit.rate_limited',
  'limit.budget_exhausted',
  'limit.circuit_probing',
  'receipt.conflict',
  'receipt.in_progress',
  'internal.unavailable',
  ...registeredErrorCodes().filter((code) => code.startsWith('policy.') || code.startsWith('model.')),
];
