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

/** What a receipt commits to must be I-JSON (src/receipts/i-json.ts), free-form parts included. */
export const iJsonBody =
  'The body must be I-JSON (RFC 7493), in its free-form parts too (tool schemas, JSON values): no duplicate member names, no lone surrogates, integers within ±(2^53−1); otherwise 400 `request.malformed_json` or `request.invalid` naming the path.';
