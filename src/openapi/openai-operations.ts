import type { ReasonResponse } from '../contracts/reason-response';
import { chatRequestSchema } from '../doors/openai/chat-request';
import { chatCompletionOf } from '../doors/openai/chat-response';
import { responsesRequestSchema } from '../doors/openai/responses-request';
import { finishedResponseOf, responseIdOf } from '../doors/openai/responses-response';
import {
  chatCompletionSchema,
  modelObjectSchema,
  modelsListSchema,
  responseObjectSchema,
} from '../doors/openai/wire-schemas';
import type { Operation } from './operation';
import { iJsonBody, pipelineErrors } from './pipeline-rules';

// The OpenAI-compatible door. Its examples are the door's own encoders applied to the Reason
// example, so the document cannot drift from what the door answers.

const noneHeld = (response: ReasonResponse) => ({ visible: response.toolCalls, held: [] });
const created = 1_764_547_200;

function chatCompletionsOperation(reasonExample: ReasonResponse): Operation {
  const chatBody = {
    model: 'valve/cost',
    messages: [
      { role: 'system', content: 'Summarize the customer message in one sentence.' },
      { role: 'user', content: 'My order #123 arrived broken.' },
    ],
    max_completion_tokens: 200,
    valve: { receiptId: reasonExample.receiptId, modelPolicy: { maxCostUsd: 0.01 } },
  };
  return {
    method: 'post',
    path: '/openai/v1/chat/completions',
    summary:
      'OpenAI Chat Completions (JSON, or SSE chunks with `stream: true`) mapped onto a Reason request (`task: openai.chat/1`); errors in OpenAI’s shape.',
    security: { kind: 'key', scope: 'reason' },
    body: chatRequestSchema,
    status: 200,
    response: chatCompletionSchema,
    bodyDescription: iJsonBody,
    streams: ['text/event-stream'],
    errors: ['request.unsupported_media_type', 'request.not_found', ...pipelineErrors],
    errorBody: 'openai',
    example: {
      body: chatBody,
      response: chatCompletionOf(reasonExample, noneHeld(reasonExample), created),
    },
  };
}

function responsesOperation(reasonExample: ReasonResponse): Operation {
  const responsesBody = {
    model: 'valve/cost',
    instructions: 'Summarize in one sentence.',
    input: 'My order #123 arrived broken.',
  };
  const shell = {
    id: responseIdOf(reasonExample.receiptId),
    model: '',
    createdSec: created,
    request: responsesRequestSchema.parse(responsesBody),
  };
  return {
    method: 'post',
    path: '/openai/v1/responses',
    summary:
      'OpenAI Responses API, stateless (`store: true`, `previous_response_id` and `conversation` are refused), JSON or SSE events with `stream: true`.',
    security: { kind: 'key', scope: 'reason' },
    body: responsesRequestSchema,
    status: 200,
    response: responseObjectSchema,
    bodyDescription: iJsonBody,
    streams: ['text/event-stream'],
    errors: ['request.unsupported_media_type', 'request.not_found', ...pipelineErrors],
    errorBody: 'openai',
    example: {
      body: responsesBody,
      response: finishedResponseOf(reasonExample, noneHeld(reasonExample), shell),
    },
  };
}

const modelsListOperation: Operation = {
  method: 'get',
  path: '/openai/v1/models',
  summary: 'The routing aliases and the reachable catalog models, in OpenAI’s list shape.',
  security: { kind: 'key' },
  status: 200,
  response: modelsListSchema,
  errorBody: 'openai',
  example: {
    response: {
      object: 'list',
      data: [
        { id: 'auto', object: 'model', created: 0, owned_by: 'valve' },
        { id: 'sim/fast', object: 'model', created: 0, owned_by: 'sim' },
      ],
    },
  },
};

const modelOperation: Operation = {
  method: 'get',
  path: '/openai/v1/models/{model}',
  summary:
    'One model of the list by its id; a catalog id keeps its `/` (`/openai/v1/models/sim/fast`). 404 `model_not_found` for any other.',
  security: { kind: 'key' },
  status: 200,
  response: modelObjectSchema,
  errorBody: 'openai',
  errors: ['request.not_found'],
  example: {
    params: { model: 'sim/fast' },
    response: { id: 'sim/fast', object: 'model', created: 0, owned_by: 'sim' },
  },
};

export function openaiOperations(reasonExample: ReasonResponse): Operation[] {
  return [
    chatCompletionsOperation(reasonExample),
    responsesOperation(reasonExample),
    modelsListOperation,
    modelOperation,
  ];
}
