// What a caller asks of a model, in the neutral model interface.

import type { Message } from './message';

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
  /** A prompt-cache breakpoint ends with this tool (Anthropic's `cache_control`); see the text block's `cache`. */
  cache?: true;
}

export type ToolChoice = 'auto' | 'none' | 'required' | { name: string };

export interface OutputSpec {
  schema: Record<string, unknown>;
  strategy?: 'native' | 'tool';
}

/**
 * How much the model thinks (seed 000 `Settings.reasoning`). The pipeline resolves it per attempt from
 * the model's catalog entry, so an adapter receives at most one control: `effort` for a model that
 * takes an effort level (OpenAI `reasoning_effort`, Anthropic `output_config.effort`, Gemini 3
 * `thinkingLevel`), `budget_tokens` for one that takes a token budget (Anthropic `thinking`, Gemini 2.5
 * `thinkingBudget`), already bounded by the attempt's `max_tokens`. `enabled: false` turns thinking off.
 */
export interface ReasoningSetting {
  enabled?: boolean;
  effort?: 'minimal' | 'low' | 'medium' | 'high';
  budget_tokens?: number;
  summary?: 'auto' | 'concise' | 'detailed';
}

export interface Settings {
  max_tokens?: number;
  temperature?: number;
  top_p?: number;
  stop?: string[];
  seed?: number;
  parallel_tool_calls?: boolean;
  reasoning?: ReasoningSetting;
}

export interface ModelRequest {
  messages: Message[];
  tools?: ToolSpec[];
  tool_choice?: ToolChoice;
  output?: OutputSpec;
  settings?: Settings;
  /**
   * Ask the model to cite the documents (`file` blocks) it is sent, where the provider needs asking
   * (Anthropic: `citations: { enabled: true }` on each document block). Providers that cite unasked
   * (Gemini grounding, OpenAI `url_citation`) are read either way.
   */
  citations?: boolean;
}
