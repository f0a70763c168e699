import type { Usage } from '../model/model-response';

/** What Valve itself knows of a streamed attempt: its planned input, the output it read, and its cap. */
export interface ReadTokens {
  /** The planned (conservatively estimated) prompt tokens. */
  inputTokens: number;
  /** The estimated tokens of every content delta read, including any Valve did not send. */
  outputTokens: number;
  /** The `max_tokens` the provider was given. */
  maxTokens: number;
}

/**
 * The usage a streamed attempt is counted at, never less than the provider billed.
 *
 * With a finish (`reported`), the provider's usage as it reported it; a field it left at 0 (an
 * OpenAI-compatible server without `include_usage`, Gemini without `usageMetadata`) is Valve's own
 * estimate instead: the planned input, and the output read up to `max_tokens` (the estimate over-counts,
 * and a provider that stopped by itself stopped at its `max_tokens` at the latest).
 *
 * Without one (`reported` undefined: Valve stopped reading because the provider wrote past its cap, or
 * the stream failed after the cap was crossed), what the provider generated up to the cut is not known:
 * the attempt's reserved worst case, or everything read when that is more.
 */
export function countedUsage(reported: Usage | undefined, read: ReadTokens): Usage {
  if (reported === undefined) {
    return {
      input_tokens: read.inputTokens,
      output_tokens: Math.max(read.maxTokens, read.outputTokens),
    };
  }
  return {
    ...reported,
    input_tokens: reported.input_tokens > 0 ? reported.input_tokens : read.inputTokens,
    output_tokens:
      reported.output_tokens > 0 ? reported.output_tokens : Math.min(read.outputTokens, read.maxTokens),
  };
}
