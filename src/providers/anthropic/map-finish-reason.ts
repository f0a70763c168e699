import type { FinishReason } from '../../model/model-response';

/** Anthropic's `stop_reason` in Valve's terms; unknown or missing is `other`, never `stop`. */
export function mapAnthropicStopReason(raw: string | null | undefined): FinishReason {
  switch (raw) {
    case 'end_turn':
    case 'stop_sequence':
      return 'stop';
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'tool_use':
      return 'tool_calls';
    case 'refusal':
      return 'content_filter';
    default:
      return 'other';
  }
}
