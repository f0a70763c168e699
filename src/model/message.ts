// A conversation in the neutral model interface: roles and the content blocks a message carries.

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
