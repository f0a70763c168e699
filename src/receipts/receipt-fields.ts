import { mediaPartsOf, type ReasonRequest } from '../contracts/reason-request';
import type { ReasonResponse } from '../contracts/reason-response';
import { committedNames, itemName, RECEIPT_TYP_V2, TENANT_FIELD } from '../contracts/receipt-field-names';
import type { FieldValues } from './commitments';
import { findIJsonProblems, type IJsonProblem } from './i-json';
import type { JsonValue } from './jcs';
import { withMediaDigests } from './media-digest';

// The values a receipt commits to (README "For auditors"), from the request as sent and the response
// as answered: the v1 fields (an absent field commits to null) and, in v2, the tenant and every
// context item and conversation turn on its own.

type RequestFields = Pick<
  ReasonRequest,
  | 'task'
  | 'instructions'
  | 'context'
  | 'conversation'
  | 'tools'
  | 'output'
  | 'modelPolicy'
  | 'toolChoice'
  | 'parallelToolCalls'
  | 'sampling'
  | 'privacy'
  | 'cache'
>;
type ResponseFields = Pick<
  ReasonResponse,
  'output' | 'toolCalls' | 'finishReason' | 'usage' | 'costUsd' | 'model' | 'decision'
> &
  Partial<Pick<ReasonResponse, 'reasoning'>>;

const REQUEST_FIELDS = {
  'req.task': 'task',
  'req.instructions': 'instructions',
  'req.context': 'context',
  'req.conversation': 'conversation',
  'req.tools': 'tools',
  'req.output': 'output',
  'req.modelPolicy': 'modelPolicy',
} as const;

function json(value: unknown): JsonValue {
  return (value ?? null) as JsonValue;
}

/**
 * A response value as the caller receives it in JSON: given as it is, undefined members and all, since
 * the commitments canonicalise a value exactly as JSON.stringify sends it.
 */
function asSent(value: unknown): JsonValue {
  return (value ?? null) as JsonValue;
}

/**
 * The request as committed: each media part of a context item or a user turn by the SHA-256 of its
 * bytes (receipts/media-digest.ts). A request without media is returned as it is.
 */
export function committedRequest<R extends RequestFields>(request: R): R {
  if (mediaPartsOf(request).length === 0) return request;
  return {
    ...request,
    context: request.context?.map((item) => withMediaDigests(item)),
    conversation: request.conversation?.map((turn) => (turn.role === 'user' ? withMediaDigests(turn) : turn)),
  } as R;
}

export function requestFieldValues(request: RequestFields): FieldValues {
  return committedFieldValues(committedRequest(request));
}

/** The request's field values, its media already by digest. */
function committedFieldValues(request: RequestFields): FieldValues {
  const values: FieldValues = {};
  for (const [field, key] of Object.entries(REQUEST_FIELDS) as [
    keyof typeof REQUEST_FIELDS,
    keyof RequestFields,
  ][]) {
    values[field] = json(request[key]);
  }
  // How the answer is generated, and the request's privacy, are committed with the policy that bounds it: inside `req.modelPolicy`,
  // only when given, so a request without these fields commits exactly the value it did before.
  const generation = {
    toolChoice: request.toolChoice,
    parallelToolCalls: request.parallelToolCalls,
    sampling: request.sampling,
    // The privacy of what the request does not label decides which models may answer, like the policy.
    privacy: request.privacy,
    cache: request.cache,
  };
  if (Object.values(generation).some((value) => value !== undefined)) {
    values['req.modelPolicy'] = asSent({ ...request.modelPolicy, ...generation });
  }
  return values;
}

export function responseFieldValues(response: ResponseFields): FieldValues {
  return {
    // The model's reasoning is output like the answer: committed with it, inside `res.output`, only
    // when there is some, so an answer without reasoning commits exactly the value it did before.
    'res.output': asSent(
      response.reasoning === undefined
        ? response.output
        : { ...response.output, reasoning: response.reasoning },
    ),
    'res.toolCalls': asSent(response.toolCalls),
    'res.meta': asSent({
      finishReason: response.finishReason,
      usage: response.usage,
      costUsd: response.costUsd,
    }),
    'dec.model': asSent(response.model),
    'dec.trace': asSent(response.decision),
  };
}

export function receiptFieldValues(request: RequestFields, response: ResponseFields): FieldValues {
  return { ...requestFieldValues(request), ...responseFieldValues(response) };
}

/** Every v2 name and its value, the names in report order. */
export function receiptValuesV2(
  given: RequestFields,
  response: ResponseFields,
  tenant: string,
): { names: string[]; values: FieldValues } {
  const request = committedRequest(given);
  const values: FieldValues = {
    ...committedFieldValues(request),
    ...responseFieldValues(response),
    [TENANT_FIELD]: tenant,
  };
  const context = request.context ?? [];
  const conversation = request.conversation ?? [];
  context.forEach((item, i) => {
    values[itemName('req.context', i)] = json(item);
  });
  conversation.forEach((turn, i) => {
    values[itemName('req.conversation', i)] = json(turn);
  });
  const names = committedNames(RECEIPT_TYP_V2, {
    'req.context': context.length,
    'req.conversation': conversation.length,
  });
  return { names, values };
}

/** I-JSON problems of the request's committed fields, with paths from the body's root. */
export function committedRequestProblems(request: RequestFields): IJsonProblem[] {
  const keys = [...Object.values(REQUEST_FIELDS), 'toolChoice', 'sampling'] as const;
  return keys.flatMap((key) =>
    findIJsonProblems(request[key] ?? null).map((p) => ({ ...p, path: `/${key}${p.path}` })),
  );
}
