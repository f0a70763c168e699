import type { FinishReason } from '../../model/model-response';

/** OpenAI's `finish_reason` in Valve's terms; anything unknown or missing is `other`, never `stop`. */
export function mapOpenAIFinishReason(raw: string | null | undefined): FinishReason {
  switch (raw) {
    case 'stop':
      return 'stop';
    case 'length':
      return 'length';
    case 'tool_calls':
    case 'function_call':
      return 'tool_calls';
    case 'content_filter':
      return 'content_filter';
    default:
      return 'other';
  }
}
