// What a model answers, whole (ModelResponse) or streamed (StreamPart), in the neutral model interface.

import type { Annotation } from './annotation';
import type { Message } from './message';

export type FinishReason = 'stop' | 'tool_calls' | 'length' | 'content_filter' | 'error' | 'other';

export interface Usage {
  input_tokens: number;
  output_tokens: number;
  cache_read_tokens?: number;
  cache_write_tokens?: number;
  reasoning_tokens?: number;
}

export interface ModelWarning {
  code: string;
  message: string;
}

export interface ModelResponse {
  message: Message;
  usage: Usage;
  finish_reason: FinishReason;
  /** The provider's own finish reason, kept beside the mapped one. */
  raw_finish_reason?: string;
  warnings?: ModelWarning[];
  /** The model the provider says answered, when it says. */
  model?: string;
}

export type BlockDelta =
  | { type: 'text'; text: string }
  /**
   * A piece of reasoning: text, a signature closing a block, redacted data (a block of its own), or a
   * signature that rides on a tool call (`call_id`, Gemini). A new `index` starts a new block.
   */
  | {
      type: 'reasoning';
      text?: string;
      signature?: string;
      redacted?: string;
      summary?: boolean;
      call_id?: string;
    }
  /** A piece of a refusal (seed 001's refusal delta). */
  | { type: 'refusal'; text: string }
  | { type: 'tool_call'; id?: string; name?: string; args_fragment?: string }
  /** Citations (seed 001's `annotations` event), offsets into the message's text streamed so far. */
  | { type: 'annotations'; annotations: Annotation[] };

export interface MessageDelta {
  message_id: string;
  index: number;
  delta: BlockDelta;
}

/** What a streaming call yields: content deltas, then exactly one finish. */
export type StreamPart =
  | { type: 'delta'; delta: MessageDelta }
  | {
      type: 'finish';
      finish_reason: FinishReason;
      raw_finish_reason?: string;
      usage: Usage;
      model?: string;
      /** Warnings the answer carries, as in ModelResponse. */
      warnings?: ModelWarning[];
    };

/** The refusal an answer carries, when the model declined: its blocks' text joined. */
export function refusalOf(response: Pick<ModelResponse, 'message'>): string | undefined {
  const parts = response.message.content.flatMap((block) =>
    block.type === 'refusal' ? [block.refusal] : [],
  );
  return parts.length > 0 ? parts.join('') : undefined;
}
