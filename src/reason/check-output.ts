import type { ReasonRequest } from '../contracts/reason-request';
import { parseJsonWithin } from '../encoding/json-depth';
import type { ContentBlock } from '../model/message';
import type { ModelRequest } from '../model/model-request';
import { type ModelResponse, refusalOf } from '../model/model-response';
import type { Plan } from '../policy/plan-types';
import type { RenderedPrompt } from '../prompt/render-prompt';
import { renderRepair } from '../prompt/render-repair';
import { AttemptsFailedError } from './attempts-failed-error';
import { checkAgainstSchema, describeIssues, type SchemaIssue } from './check-json';
import { decisionOf } from './decision-of';
import { deriveNeeds } from './derive-needs';
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

/** A JSON answer's value, parsed once here and handed on so the output is not parsed again. */
export interface ParsedJson {
  value: unknown;
}

/**
 * What is wrong with a JSON answer (`issues`, absent when it is right, the request asked for text, or
 * the model called tools instead): the value must parse and validate against `output.schema`. `json` is
 * the parsed value whenever it parsed.
 */
export function checkOutput(
  request: ReasonRequest,
  response: ModelResponse,
): { issues?: SchemaIssue[]; json?: ParsedJson } {
  if (request.output?.format !== 'json') return {};
  // A refusal is not an answer to validate, and no repair would turn it into one.
  if (refusalOf(response) !== undefined) return {};
  if (response.message.content.some((b) => b.type === 'tool_call' || b.type === 'invalid_tool_call'))
    return {};
  const answer = answerText(response);
  let value = answer.value;
  if (!answer.hasValue) {
    try {
      value = parseJsonWithin(answer.text);
    } catch {
      return { issues: [{ path: '', keyword: 'json', message: 'The answer is not valid JSON.' }] };
    }
  }
  const check = checkAgainstSchema(value, request.output.schema ?? {});
  return check.ok ? { json: { value } } : { issues: check.issues, json: { value } };
}

/**
 * The repair attempt's request: the original conversation, with the model's invalid answer and the
 * validator's findings appended to the final user turn as data regions (prompt/render-repair). Neither
 * reaches a system part or an assistant turn: the answer may quote untrusted input, and the findings
 * quote the answer's key names.
 */
export function repairRequest(
  request: ModelRequest,
  prompt: Pick<RenderedPrompt, 'nonce' | 'mode'>,
  response: ModelResponse,
  issues: SchemaIssue[],
): ModelRequest {
  const feedback: ContentBlock = {
    type: 'text',
    text: renderRepair(prompt, answerText(response).text, issues),
  };
  const messages = [...request.messages];
  const last = messages.at(-1);
  if (last?.role === 'user')
    messages[messages.length - 1] = { ...last, content: [...last.content, feedback] };
  else messages.push({ role: 'user', content: [feedback] });
  return { ...request, messages };
}

/**
 * Calls the models, then checks a JSON answer; an invalid one gets one repair attempt inside the same
 * budget, and a second invalid answer is `model.invalid_response` with the validation errors in details.
 * The repair is planned from the request it sends (the prompt plus the first answer and the findings),
 * so its worst case is weighed against what is left; when it no longer fits, the loop refuses it and
 * the error's trace says why, beside the first attempts.
 */
export async function callWithRepair<R extends ModelResponse>(
  prepared: PreparedReason,
  call: (request: ModelRequest, plan: Plan) => Promise<AttemptsOutcome<R>>,
): Promise<AttemptsOutcome<R> & { json?: ParsedJson }> {
  const first = await call(prepared.modelRequest, prepared.plan);
  const { issues, json } = checkOutput(prepared.request, first.value);
  if (!issues) return { ...first, json };
  const request = repairRequest(prepared.modelRequest, prepared.prompt, first.value, issues);
  const needs = deriveNeeds(prepared.request, request.messages, prepared.media);
  const plan: Plan = { ...prepared.plan, needs };
  let second: AttemptsOutcome<R>;
  try {
    second = await call(request, plan);
  } catch (error) {
    if (!(error instanceof AttemptsFailedError)) throw error;
    throw new AttemptsFailedError(error.code, error.message, {
      details: { ...(error.details ?? {}), firstValidationErrors: issues },
      decision: decisionOf(prepared.plan, [...first.attempts, ...error.attempts], prepared.budget),
      headers: error.headers,
    });
  }
  const attempts = [...first.attempts, ...second.attempts];
  const warnings = [...first.warnings, ...second.warnings];
  const repaired = checkOutput(prepared.request, second.value);
  if (!repaired.issues) return { ...second, attempts, warnings, json: repaired.json };
  throw new AttemptsFailedError(
    'model.invalid_response',
    `The answer did not validate against output.schema, even after one repair attempt:\n${describeIssues(repaired.issues)}`,
    {
      details: {
        kind: 'invalid_response',
        provider: second.attempt.provider,
        model: second.attempt.model,
        validationErrors: repaired.issues,
        firstValidationErrors: issues,
      },
      decision: decisionOf(prepared.plan, attempts, prepared.budget),
    },
  );
}
