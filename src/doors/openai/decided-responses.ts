import { type DecidedAnswer, decidedAnswerIdOf, decidedExtensionOf } from '../decided-answer';
import { functionCallItemOf, type ResponseShell, responseObjectOf } from './responses-response';

// A continuation after an approve or edit as a Responses API `response` (or its events): one
// `function_call` item for the decided call, no tokens used, the decision and the token in `valve`.

const noUsage = {
  input_tokens: 0,
  input_tokens_details: { cached_tokens: 0 },
  output_tokens: 0,
  output_tokens_details: { reasoning_tokens: 0 },
  total_tokens: 0,
};

export const decidedResponseIdOf = (answer: DecidedAnswer) => `resp_${decidedAnswerIdOf(answer)}`;

export function decidedResponseOf(answer: DecidedAnswer, shell: ResponseShell) {
  return responseObjectOf(shell, 'completed', {
    output: [functionCallItemOf(answer.call, 'completed')],
    usage: noUsage,
    valve: decidedExtensionOf(answer),
  });
}

export async function* decidedResponseEvents(
  answer: DecidedAnswer,
  shell: ResponseShell,
): AsyncGenerator<string> {
  let sequence = 0;
  const frame = (type: string, payload: Record<string, unknown>) =>
    `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: sequence++, ...payload })}\n\n`;
  const started = responseObjectOf(shell, 'in_progress');
  yield frame('response.created', { response: started }) +
    frame('response.in_progress', { response: started });
  const item = functionCallItemOf(answer.call, 'completed');
  const at = { item_id: item.id, output_index: 0 };
  yield frame('response.output_item.added', {
    output_index: 0,
    item: functionCallItemOf(answer.call, 'in_progress'),
  }) +
    frame('response.function_call_arguments.delta', { ...at, delta: item.arguments }) +
    frame('response.function_call_arguments.done', { ...at, name: item.name, arguments: item.arguments }) +
    frame('response.output_item.done', { output_index: 0, item }) +
    frame('response.completed', { response: decidedResponseOf(answer, shell) });
}
