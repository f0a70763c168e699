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
