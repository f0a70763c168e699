import type { ReasonResponse } from '../contracts/reason-response';
import { messageOf } from '../doors/anthropic/message-response';
import { countTokensRequestSchema, messagesRequestSchema } from '../doors/anthropic/messages-request';
import {
  messageSchema,
  modelInfoSchema,
  modelsPageSchema,
  tokensCountSchema,
} from '../doors/anthropic/wire-schemas';
import type { Operation } from './operation';
import { iJsonBody, pipelineErrors } from './pipeline-rules';

// The Anthropic-compatible door. Its examples are the door's own encoders applied to the Reason
// example, so the document cannot drift from what the door answers.

const noneHeld = (response: ReasonResponse) => ({ visible: response.toolCalls, held: [] });
const keyAuth = 'The key as `x-api-key` or `Authorization: Bearer`.';

export function anthropicOperations(reasonExample: ReasonResponse): Operation[] {
  const messagesBody = {
    model: 'auto',
    max_tokens: 1024,
    system: 'Summarize the customer message in one sentence.',
    messages: [{ role: 'user', content: 'My order #123 arrived broken.' }],
  };
  const model = {
    type: 'model',
    id: 'sim/fast',
    display_name: 'sim/fast',
    created_at: '1970-01-01T00:00:00Z',
    max_input_tokens: 32_000,
    max_tokens: 4096,
  };
  return [
    {
      method: 'post',
      path: '/anthropic/v1/messages',
      summary: `Anthropic's Messages API (JSON, or Anthropic's SSE events with \`stream: true\`) mapped onto a Reason request (\`task: anthropic.messages/1\`); errors in Anthropic's shape. ${keyAuth}`,
      security: { kind: 'key', scope: 'reason' },
      body: messagesRequestSchema,
      status: 200,
      response: messageSchema,
      bodyDescription: iJsonBody,
      streams: ['text/event-stream'],
      errors: ['request.unsupported_media_type', 'request.not_found', ...pipelineErrors],
      errorBody: 'anthropic',
      example: { body: messagesBody, response: messageOf(reasonExample, noneHeld(reasonExample)) },
    },
    {
      method: 'post',
      path: '/anthropic/v1/messages/count_tokens',
      summary: `The input tokens Valve's planner counts for a Messages API body (its prompt as rendered, tools and media); no model is called. ${keyAuth}`,
      security: { kind: 'key', scope: 'reason' },
      body: countTokensRequestSchema,
      status: 200,
      response: tokensCountSchema,
      bodyDescription: iJsonBody,
      errors: [
        'request.unsupported_media_type',
        'request.not_found',
        'request.media_refused',
        'limit.rate_limited',
      ],
      errorBody: 'anthropic',
      example: {
        body: { model: 'auto', messages: messagesBody.messages, system: messagesBody.system },
        response: { input_tokens: 42 },
      },
    },
    {
      method: 'get',
      path: '/anthropic/v1/models',
      summary: `The routing aliases, the reachable catalog models and the names operators mapped onto them (\`answersTo\`), in Anthropic's list shape. ${keyAuth}`,
      security: { kind: 'key' },
      status: 200,
      response: modelsPageSchema,
      errorBody: 'anthropic',
      example: { response: { data: [model], has_more: false, first_id: 'sim/fast', last_id: 'sim/fast' } },
    },
    {
      method: 'get',
      path: '/anthropic/v1/models/{model}',
      summary:
        'One model of the list by its id; a catalog id keeps its `/` (`/anthropic/v1/models/sim/fast`). 404 `not_found_error` for any other.',
      security: { kind: 'key' },
      status: 200,
      response: modelInfoSchema,
      errorBody: 'anthropic',
      errors: ['request.not_found'],
      example: { params: { model: 'sim/fast' }, response: model },
    },
  ];
}
