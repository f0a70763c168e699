// The neutral model interface (seed `000`): what every adapter takes and gives back.
// Nothing outside src/providers/ knows a provider's wire format; everything speaks these types.

export type Role = 'system' | 'user' | 'assistant' | 'tool';

export type ContentBlock =
  | { type: 'text'; text: string }
  | { type: 'reasoning'; text?: string; signature?: string; redacted?: string }
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
}

export interface ToolAnnotations {
  read_only?: boolean;
  idempotent?: boolean;
  destructive?: boolean;
}

export interface ToolSpec {
  name: string;
  description?: string;
  input_schema: Record<string, unknown>;
  annotations?: ToolAnnotations;
}

export type ToolChoice = 'auto' | 'none' | 'required' | { name: string };

export interface OutputSpec {
  schema: Record<string, unknown>;
  strategy?: 'native' | 'tool';
}

export interface Settings {
  max_tokens?: number;
  temperature?: number;
  top_p?: number;
  stop?: string[];
  seed?: number;
  parallel_tool_calls?: boolean;
}

export interface ModelRequest {
  messages: Message[];
  tools?: ToolSpec[];
  tool_choice?: ToolChoice;
  output?: OutputSpec;
  settings?: Settings;
}

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
  | { type: 'reasoning'; text?: string; signature?: string }
  | { type: 'tool_call'; id?: string; name?: string; args_fragment?: string };

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
      /** Warnings the answer carries, as in ModelResponse (e.g. an OpenAI refusal). */
      warnings?: ModelWarning[];
    };

export const modelErrorKinds = [
  'rate_limited',
  'overloaded',
  'server',
  'timeout',
  'network',
  'auth',
  'permission',
  'not_found',
  'invalid_request',
  'context_overflow',
  'content_filter',
  'quota_exhausted',
  'invalid_response',
  'unknown',
] as const;
export type ModelErrorKind = (typeof modelErrorKinds)[number];

/** A classified provider failure (seed `000` ModelError). */
export interface ModelError {
  kind: ModelErrorKind;
  message: string;
  provider?: string;
  model?: string;
  status?: number;
  provider_code?: string;
  retry_after_ms?: number;
  request_id?: string;
  dispatch?: 'not_sent' | 'sent' | 'streaming';
  emitted_deltas?: boolean;
}

/** What an adapter is handed for one call: plain options, never Hono's context. */
export interface CallOptions {
  model: string;
  signal: AbortSignal;
  fetch: typeof fetch;
  apiKey?: string;
  baseUrl?: string;
  /** Adapter-specific settings from the catalog entry (for the simulator: its scripted behaviour). */
  config?: Record<string, unknown>;
  /** Extra request headers from the provider's catalog entry (e.g. OpenRouter's `HTTP-Referer`). */
  headers?: Record<string, string>;
  /** Fails a call with `timeout` when no byte arrives for this long (first byte or between chunks). */
  idleTimeoutMs?: number;
  /** The Workers AI binding, when the worker has one (kind `workers-ai`). */
  ai?: WorkersAiBinding;
}

/** The one method of the Workers AI binding (`env.AI`) that the `workers-ai` adapter uses. */
export interface WorkersAiBinding {
  run(model: string, inputs: Record<string, unknown>, options?: Record<string, unknown>): Promise<unknown>;
}

export interface ModelAdapter {
  readonly kind: string;
  generate(request: ModelRequest, options: CallOptions): Promise<ModelResponse>;
  stream(request: ModelRequest, options: CallOptions): AsyncIterable<StreamPart>;
  /**
   * The exact JSON body this adapter would send for the request, without sending it. Optional in the
   * type, required in practice: the prompt tests check trust separation on every registered adapter's
   * wire body and fail for an adapter that lacks this.
   */
  toWireBody?(request: ModelRequest, options: CallOptions): unknown;
}
