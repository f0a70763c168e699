import type { ReasonRequest } from '../contracts/reason-request';
import { ApiError } from '../errors';
import type { ModelRequest } from '../model/model-request';
import type { ModelResponse } from '../model/model-response';
import type { CatalogModel } from '../policy/catalog';
import { checkAgainstSchema, describeIssues, type SchemaIssue } from './check-json';
import { decisionOf } from './decision-of';
import type { PreparedReason } from './prepare-reason';
import type { AttemptsOutcome } from './run-attempts';

/** The text a JSON answer came as: its `json` block re-serialized, else its text. */
function answerText(response: ModelResponse): { text: string; value?: unknown; hasValue: boolean } {
  let text = '';
  for (const block of response.message.content) {
    if (block.type === 'json')
      return { text: JSON.stringify(block.value), value: block.value, hasValue: true };
    if (block.type === 'text') text += block.text;
  }
  return { text, hasValue: false };
}

/**
 * What is wrong with a JSON answer, or undefined when it is right (or the request asked for text, or the
 * model called tools instead): the value must parse and validate against `output.schema`.
 */
export function outputIssues(request: ReasonRequest, response: ModelResponse): SchemaIssue[] | undefined {
  if (request.output?.format !== 'json') return undefined;
  if (response.message.content.some((b) => b.type === 'tool_call' || b.type === 'invalid_tool_call'))
    return undefined;
  const answer = answerText(response);
  let value = answer.value;
  if (!answer.hasValue) {
    try {
      value = JSON.parse(answer.text);
    } catch {
      return [{ path: '', keyword: 'json', message: 'The answer is not valid JSON.' }];
    }
  }
  const check = checkAgainstSchema(value, request.output.schema ?? {});
  return check.ok ? undefined : check.issues;
}

/** Keeps validator text usable as trusted feedback: locations and messages only, bounded, no markup. */
function safeLine(text: string): string {
  return text.replace(/[^\p{L}\p{N} _./#:'"()[\],<>=-]/gu, '?').slice(0, 200);
}

/**
 * The repair attempt's request: the original conversation, the model's own invalid answer, and the
 * validation errors as a system-channel message from Valve (trusted feedback, not user text).
 */
export function repairRequest(
  request: ModelRequest,
  response: ModelResponse,
  issues: SchemaIssue[],
): ModelRequest {
  const feedback = issues.map(
    (i) => `- at "${safeLine(i.path)}" (${safeLine(i.keyword)}): ${safeLine(i.message)}`,
  );
  return {
    ...request,
    messages: [
      ...request.messages,
      { role: 'assistant', content: [{ type: 'text', text: answerText(response).text }] },
      {
        role: 'system',
        content: [
          {
            type: 'text',
            text:
              'Valve: your previous answer does not validate against the required JSON schema:\n' +
              `${feedback.join('\n')}\nAnswer again with only a JSON value that satisfies the schema.`,
          },
        ],
      },
    ],
  };
}

/**
 * Calls the models, then checks a JSON answer; an invalid one gets one repair attempt inside the same
 * budget, and a second invalid answer is `model.invalid_response` with the validation errors in details.
 */
export async function callWithRepair<R extends ModelResponse>(
  prepared: PreparedReason,
  call: (request: ModelRequest) => Promise<AttemptsOutcome<R>>,
): Promise<AttemptsOutcome<R>> {
  const first = await call(prepared.modelRequest);
  const issues = outputIssues(prepared.request, first.value);
  if (!issues) return first;
  const second = await call(repairRequest(prepared.modelRequest, first.value, issues));
  const attempts = [...first.attempts, ...second.attempts];
  const remaining = outputIssues(prepared.request, second.value);
  if (!remaining) return { ...second, attempts };
  throw new ApiError(
    'model.invalid_response',
    `The answer did not validate against output.schema, even after one repair attempt:\n${describeIssues(remaining)}`,
    {
      details: {
        kind: 'invalid_response',
        provider: second.attempt.provider,
        model: second.attempt.model,
        validationErrors: remaining,
        firstValidationErrors: issues,
        decision: decisionOf(prepared.plan, attempts, prepared.budget),
      },
    },
  );
}

/** The request for one attempt: JSON output by the model's own means, as its catalog entry says. */
export function forModel(request: ModelRequest, entry: CatalogModel): ModelRequest {
  if (!request.output) return request;
  return {
    ...request,
    output: { ...request.output, strategy: entry.capabilities.json === 'tool' ? 'tool' : 'native' },
  };
}
