import type { ApiError } from '../errors';
import type { Exclusion, ExclusionReason } from '../policy/plan-types';

// Clients read "the input is too long" as a class of its own: LangChain raises ContextOverflowError and
// its agents summarize the history, litellm raises ContextWindowExceededError and falls back to a model
// with a larger window. OpenAI's API and Anthropic's say so with a 400 of their own; Valve says it as
// `model.context_overflow` (a provider refused the input) or as a `policy.no_eligible_model` whose
// models were kept out by their windows alone. A door renders either in its own wire format.

/** Exclusions that say nothing about the request itself: the caller pinned another model, or no key. */
const beside: ReadonlySet<ExclusionReason> = new Set(['pinned', 'not_configured']);

function exclusionsOf(details: Record<string, unknown> | null): Exclusion[] {
  const excluded = details?.excluded;
  return Array.isArray(excluded) ? (excluded as Exclusion[]) : [];
}

/**
 * Why the input fits no model, when that is all that kept the request from an answer: the provider's
 * message, or each window that was too small (`sim/fast: about 60103 input tokens … 32000-token
 * window`). Undefined for any other error, and for a plan that also left out models for a reason of
 * the request's own (a region, a capability, the cost), which a shorter input would not fix.
 */
export function contextOverflowOf(error: ApiError): string | undefined {
  if (error.code === 'model.context_overflow') return error.message;
  if (error.code !== 'policy.no_eligible_model') return undefined;
  const excluded = exclusionsOf(error.details);
  const tooSmall = excluded.filter((e) => e.reason === 'context_window');
  if (tooSmall.length === 0 || !excluded.every((e) => e.reason === 'context_window' || beside.has(e.reason)))
    return undefined;
  return tooSmall.map((e) => `${e.provider}/${e.model}: ${e.detail}`).join('; ');
}
