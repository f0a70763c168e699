import type { ReasonUsage } from '../contracts/reason-response';
import type { Usage } from '../model/model-response';

/** A usage in the response's terms. */
export function reasonUsageOf(usage: Usage): ReasonUsage {
  return {
    inputTokens: usage.input_tokens,
    outputTokens: usage.output_tokens,
    reasoningTokens: usage.reasoning_tokens ?? 0,
    cacheReadTokens: usage.cache_read_tokens ?? 0,
  };
}
