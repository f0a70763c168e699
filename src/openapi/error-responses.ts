import { anthropicStatusOf } from '../doors/anthropic/anthropic-error';
import { openaiStatusOf } from '../doors/openai/openai-error';
import { lookupErrorCode, registeredErrorCodes } from '../errors';
import type { Operation } from './operation';

// The error answers of an operation, one per status, each naming the codes it can carry: the codes the
// operation's security, parameters and body imply, and the ones its own work can fail with. No
// `default`: a status the document does not list is a status the server must not answer.

type JsonObject = Record<string, unknown>;

/** What any request can meet: a malformed X-Correlation-Id or X-Request-Id, and an unexpected failure. */
const everyRequest = ['request.invalid', 'internal.error'];
/** What reading a body can meet (src/middleware/read-body.ts and the size limit). */
const anyBody = ['request.invalid', 'request.malformed_json', 'request.too_large', 'request.body_timeout'];

/** Every code an operation can answer with. */
export function errorCodesOf(operation: Operation): string[] {
  const codes = new Set(everyRequest);
  const add = (more: readonly string[]) => {
    for (const code of more) codes.add(code);
  };
  if (operation.security.kind === 'admin') add(['auth.missing_key', 'auth.invalid_key']);
  if (operation.security.kind === 'key') {
    add(['auth.missing_key', 'auth.invalid_key', 'auth.revoked_key']);
    if (operation.security.scope) add(['auth.forbidden']);
  }
  if (operation.body) add(anyBody);
  add(operation.errors ?? []);
  const registered = new Set(registeredErrorCodes());
  const unknown = [...codes].filter((code) => !registered.has(code));
  if (unknown.length > 0)
    throw new Error(`${operation.path} names unregistered codes: ${unknown.join(', ')}`);
  return [...codes];
}

/** The operation's error codes by the status they answer with, in the door's statuses for the door. */
function codesByStatus(operation: Operation): Map<number, string[]> {
  const byStatus = new Map<number, string[]>();
  for (const code of errorCodesOf(operation)) {
    const entry = lookupErrorCode(code);
    const status =
      operation.errorBody === 'openai'
        ? openaiStatusOf(entry)
        : operation.errorBody === 'anthropic'
          ? anthropicStatusOf(entry)
          : entry.status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return new Map([...byStatus].sort(([a], [b]) => a - b));
}

/** The error body's schema, its code held to the ones this status carries. */
function bodySchema(operation: Operation, codes: string[]): JsonObject {
  const code = { type: 'object', properties: { code: { enum: codes } }, required: ['code'] };
  if (operation.errorBody === 'anthropic')
    return {
      allOf: [
        { $ref: '#/components/schemas/AnthropicErrorBody' },
        { type: 'object', properties: { valve: code }, required: ['valve'] },
      ],
    };
  return operation.errorBody === 'openai'
    ? {
        allOf: [
          { $ref: '#/components/schemas/OpenAiErrorBody' },
          { type: 'object', properties: { valve: code }, required: ['valve'] },
        ],
      }
    : {
        allOf: [
          { $ref: '#/components/schemas/ErrorBody' },
          { type: 'object', properties: { error: code }, required: ['error'] },
        ],
      };
}

export function errorResponsesOf(operation: Operation): Record<string, JsonObject> {
  const responses: Record<string, JsonObject> = {};
  for (const [status, codes] of codesByStatus(operation)) {
    const shape =
      operation.errorBody === 'openai'
        ? 'OpenAI’s error shape; `valve.code` is one of'
        : operation.errorBody === 'anthropic'
          ? 'Anthropic’s error shape; `valve.code` is one of'
          : 'The error body; `error.code` is one of';
    responses[String(status)] = {
      description: `${shape}: ${codes.map((code) => `\`${code}\` (${lookupErrorCode(code).meaning})`).join('; ')}`,
      content: { 'application/json': { schema: bodySchema(operation, codes) } },
    };
  }
  return responses;
}
