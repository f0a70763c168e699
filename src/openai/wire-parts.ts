import type { WireSchema } from '../contracts/wire-schema';

// What the door's mappers accept in the parts of a body that zod reads loosely (so that a 400 can name
// the exact part): the OpenAPI document states these instead of "any object".

/** A tool call's arguments: the text of a JSON object (argumentsOf in chat-to-reason.ts). */
export const argumentsWire: WireSchema = {
  type: 'string',
  description: 'The text of a JSON object; empty is {}.',
  contentMediaType: 'application/json',
  contentSchema: { type: 'object' },
};

/** Text, or text parts of the given types (Valve takes text only). */
function textWire(partTypes: readonly string[]): WireSchema {
  return {
    anyOf: [
      { type: 'string' },
      {
        type: 'array',
        items: {
          type: 'object',
          properties: { type: { enum: [...partTypes] }, text: { type: 'string' } },
          required: ['type', 'text'],
        },
      },
    ],
  };
}

/** Chat Completions message content: a string or `text` parts. */
export const chatContentWire = textWire(['text']);

const responsesText = textWire(['input_text', 'output_text']);
const callId = { type: 'string', minLength: 1 };

/**
 * A Responses API input item Valve maps: a message, a function call, or a function call's output
 * (which must answer a call earlier in `input`; responses-to-reason.ts).
 */
export const responsesItemWire: WireSchema = {
  anyOf: [
    {
      type: 'object',
      properties: {
        type: { const: 'message' },
        role: { enum: ['user', 'assistant', 'system', 'developer'] },
        content: responsesText,
      },
      required: ['role', 'content'],
    },
    {
      type: 'object',
      properties: {
        type: { const: 'function_call' },
        call_id: callId,
        name: { type: 'string', minLength: 1 },
        arguments: argumentsWire,
      },
      required: ['type', 'call_id', 'name', 'arguments'],
    },
    {
      type: 'object',
      properties: { type: { const: 'function_call_output' }, call_id: callId, output: responsesText },
      required: ['type', 'call_id', 'output'],
    },
  ],
};
