// What an adapter implements and is handed for one call.

import type { ModelRequest } from './model-request';
import type { ModelResponse, StreamPart } from './model-response';

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
  /** The catalog entry says the model reasons (`capabilities.reasoning`): some providers then refuse sampling settings. */
  reasoning?: boolean;
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
