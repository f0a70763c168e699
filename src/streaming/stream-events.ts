import type { Annotation, MaybeSignedResponse } from '../contracts/reason-response';
import type { ErrorObject } from '../errors';

// The events of Valve's stream (README "Streaming"); a tool call streams as start, argument deltas,
// and exactly one completed or error event.

export interface ToolCallStarted {
  type: 'response.tool_call.started';
  index: number;
  item_id: string;
  call_id: string;
  name: string;
}

export interface ToolCallDelta {
  type: 'response.tool_call.delta';
  index: number;
  item_id: string;
  call_id: string;
  arguments_delta: string;
}

export interface ToolCallCompleted {
  type: 'response.tool_call.completed';
  index: number;
  item_id: string;
  call_id: string;
  name: string;
  arguments: string;
}

export interface ToolCallError {
  type: 'response.tool_call.error';
  index: number;
  item_id: string;
  call_id: string;
  error: { type: string; code: string; message: string };
}

export type ToolCallEvent = ToolCallStarted | ToolCallDelta | ToolCallCompleted | ToolCallError;

export interface PartialUsage {
  inputTokens: number;
  outputTokens: number;
}

export type StreamEvent =
  | {
      type: 'response.created';
      receiptId: string;
      model: { provider: string; model: string; region: string };
    }
  | { type: 'response.output_text.delta'; delta: string }
  /** A piece of the model's refusal (seed 001's refusal delta), sent as it arrives; never answer text. */
  | { type: 'response.refusal.delta'; delta: string }
  /** The model's thinking text (or its provider's summary of it), as it arrives. */
  | { type: 'response.reasoning.delta'; delta: string }
  /** Citations on the text sent so far (seed 001's `annotations` event), as in `output.annotations`. */
  | { type: 'response.output_text.annotations'; annotations: Annotation[] }
  | ToolCallEvent
  | { type: 'response.completed'; response: MaybeSignedResponse }
  | { type: 'response.error'; error: ErrorObject; emittedDeltas: boolean; partialUsage: PartialUsage }
  | { type: 'response.cancelled'; reason: 'deadline' | 'budget'; response: MaybeSignedResponse };

export const terminalEventTypes = ['response.completed', 'response.error', 'response.cancelled'] as const;

export function isTerminal(event: StreamEvent): boolean {
  return (terminalEventTypes as readonly string[]).includes(event.type);
}
