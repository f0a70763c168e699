// A conversation in the neutral model interface: roles and the content blocks a message carries.

import type { Annotation } from './annotation';

export type Role = 'system' | 'user' | 'assistant' | 'tool';

/** Where a media block's bytes are: inline, at a URL the provider fetches, or in the provider's file store. */
export type MediaSource =
  | { kind: 'base64'; data: string }
  | { kind: 'url'; url: string }
  | { kind: 'file_id'; file_id: string };

/** An image, an audio clip or a file (a PDF), with its MIME type. */
export interface MediaBlock {
  type: 'image' | 'audio' | 'file';
  source: MediaSource;
  mime_type: string;
  /** A file's name, for providers that take one. */
  filename?: string;
}

/**
 * The model's reasoning (seed 000's `reasoning` block): thinking or summary text, and the opaque state
 * its provider asks back — Anthropic's `signature` and `redacted_thinking` data (`redacted`), Gemini's
 * `thoughtSignature`, which `call_id` ties to the function call it came with. In a request, `origin`
 * names the model that produced it: a block is sent only to that model (reason/replayable-reasoning.ts).
 */
export interface ReasoningBlock {
  type: 'reasoning';
  text?: string;
  signature?: string;
  redacted?: string;
  /** The text is the provider's summary of its thinking. */
  summary?: boolean;
  call_id?: string;
  origin?: { provider: string; model: string };
}

export type ContentBlock =
  /**
   * `annotations`: the citations on this text, offsets into it (seed 001's text block). `cache`: a
   * prompt-cache breakpoint ends with this block, for providers that cache up to a marked block
   * (Anthropic's `cache_control`): every byte of the prompt up to its end repeats from one request to
   * the next. A provider that does not cache so reads the text alone.
   */
  | { type: 'text'; text: string; annotations?: Annotation[]; cache?: true }
  | MediaBlock
  | ReasoningBlock
  /** The model declined to answer, in its own words (seed 001's refusal block); never the answer's text. */
  | { type: 'refusal'; refusal: string }
  | { type: 'json'; value: unknown }
  | { type: 'tool_call'; id: string; name: string; args: Record<string, unknown> }
  | { type: 'invalid_tool_call'; id: string; name?: string; raw_args: string; error: string }
  | { type: 'provider'; provider: string; data: unknown };

export interface Message {
  role: Role;
  content: ContentBlock[];
  /** For role `tool`: the call this message answers. */
  call_id?: string;
  tool?: string;
  /** For role `tool`: how the call ended (seed ToolStatus); success when absent. */
  status?: 'success' | 'error' | 'rejected' | 'skipped' | 'cancelled';
}

/** Whether a tool message reports a call that did not succeed, for providers' own error flag (`is_error`). */
export function isFailedToolResult(message: Message): boolean {
  return message.status === 'error' || message.status === 'rejected' || message.status === 'cancelled';
}
