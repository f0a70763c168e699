import type { WireSchema } from '../../contracts/wire-schema';

// What the door's mappers accept in the parts of a body that zod reads loosely (so that a 400 can name
// the exact part): the OpenAPI document states these instead of "any object".

/** A tool call's arguments: the text of a JSON object (argumentsOf in chat-to-reason.ts). */
export const argumentsWire: WireSchema = {
  type: 'string',
  description: 'The text of a JSON object; empty is {}.',
  contentMediaType: 'application/json',
  contentSchema: { type: 'object' },
};

/** Text, or parts: text parts of the given types, and the media parts given (user messages only). */
function contentWire(textTypes: readonly string[], media: readonly WireSchema[] = []): WireSchema {
  const text = {
    type: 'object',
    properties: { type: { enum: [...textTypes] }, text: { type: 'string' } },
    required: ['type', 'text'],
  };
  return {
    anyOf: [
      { type: 'string' },
      { type: 'array', items: media.length === 0 ? text : { anyOf: [text, ...media] } },
    ],
  };
}

const base64 = { type: 'string', contentEncoding: 'base64' };
const dataOrHttps = {
  type: 'string',
  description:
    'A base64 data URL (data:<MIME type>;base64,…), or an https URL whose path ends in the type’s extension (refused unless valve.mediaPolicy.allowUrls)',
};
const pdfData = {
  type: 'string',
  description: 'A data URL (data:application/pdf;base64,…), or the base64 of a PDF',
};
const fileId = {
  type: 'string',
  description: 'A file in the store of the pinned model’s provider; refused unless the request pins a model',
};
const detail = {
  enum: ['auto', 'low', 'high', 'original'],
  description: 'Not applied: openai.param_ignored',
};
const object = (properties: Record<string, unknown>, required: string[]) => ({
  type: 'object',
  properties,
  required,
});

/** Chat Completions message content: a string or `text` parts. */
export const chatContentWire = contentWire(['text']);

/**
 * A Chat Completions user message's content: text, and images (PNG, JPEG, GIF, WebP), audio (WAV,
 * MP3) and PDFs, each within the limits of docs/reason-api.md.
 */
export const chatUserContentWire = contentWire(
  ['text'],
  [
    object({ type: { const: 'image_url' }, image_url: object({ url: dataOrHttps, detail }, ['url']) }, [
      'type',
      'image_url',
    ]),
    object(
      {
        type: { const: 'input_audio' },
        input_audio: object({ data: base64, format: { enum: ['wav', 'mp3'] } }, ['data', 'format']),
      },
      ['type', 'input_audio'],
    ),
    object(
      {
        type: { const: 'file' },
        file: object({ file_data: pdfData, file_id: fileId, filename: { type: 'string' } }, []),
      },
      ['type', 'file'],
    ),
  ],
);

const responsesText = contentWire(['input_text', 'output_text']);
/** A Responses API message's content: text, and (in a user message) `input_image` and `input_file` parts. */
const responsesContent = contentWire(
  ['input_text', 'output_text'],
  [
    object({ type: { const: 'input_image' }, image_url: dataOrHttps, detail }, ['type', 'image_url']),
    object(
      {
        type: { const: 'input_file' },
        file_data: pdfData,
        file_id: fileId,
        file_url: {
          ...dataOrHttps,
          description: 'An https URL of a PDF (refused unless valve.mediaPolicy.allowUrls)',
        },
        filename: { type: 'string' },
        detail: { enum: ['auto', 'low', 'high'], description: 'Not applied: openai.param_ignored' },
      },
      ['type'],
    ),
  ],
);
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
        content: responsesContent,
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
    {
      type: 'object',
      description: 'An approval request of a held call, as Valve answered it: left out of the conversation',
      properties: {
        type: { const: 'mcp_approval_request' },
        id: { type: 'string' },
        server_label: { type: 'string' },
        name: { type: 'string' },
        arguments: { type: 'string' },
      },
      required: ['type', 'id'],
    },
    {
      type: 'object',
      description: 'Continues after a reviewer decided the held call it names (docs/approvals.md)',
      properties: {
        type: { const: 'mcp_approval_response' },
        approval_request_id: { type: 'string', pattern: '^mcpr_' },
        approve: { type: 'boolean' },
        reason: { type: ['string', 'null'] },
      },
      required: ['type', 'approval_request_id', 'approve'],
    },
  ],
};
