import { type DecidedAnswer, decidedAnswerIdOf, decidedExtensionOf } from '../decided-answer';

// A continuation after an approve or edit as a `chat.completion` (or its chunks): the decided call in
// `tool_calls`, finish_reason `tool_calls`, no tokens used, the decision and the token in `valve`.

const noUsage = {
  prompt_tokens: 0,
  completion_tokens: 0,
  total_tokens: 0,
  prompt_tokens_details: { cached_tokens: 0 },
  completion_tokens_details: { reasoning_tokens: 0 },
};

function wireCallOf(answer: DecidedAnswer) {
  const { call } = answer;
  return {
    id: call.id,
    type: 'function' as const,
    function: { name: call.name, arguments: JSON.stringify(call.arguments) },
  };
}

export function decidedCompletionOf(answer: DecidedAnswer, model: string, createdSec: number) {
  return {
    id: `chatcmpl-${decidedAnswerIdOf(answer)}`,
    object: 'chat.completion' as const,
    created: createdSec,
    model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant' as const,
          content: null,
          refusal: null,
          tool_calls: [wireCallOf(answer)],
        },
        finish_reason: 'tool_calls' as const,
        logprobs: null,
      },
    ],
    usage: noUsage,
    system_fingerprint: null,
    valve: decidedExtensionOf(answer),
  };
}

export async function* decidedChunks(
  answer: DecidedAnswer,
  model: string,
  createdSec: number,
  includeUsage: boolean,
): AsyncGenerator<string> {
  const id = `chatcmpl-${decidedAnswerIdOf(answer)}`;
  const base = { id, object: 'chat.completion.chunk', created: createdSec, model, system_fingerprint: null };
  const usage = includeUsage ? { usage: null } : {};
  const chunk = (delta: Record<string, unknown>, finish: string | null = null, extra = {}) =>
    `data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }], ...usage, ...extra })}\n\n`;
  const valve = decidedExtensionOf(answer);
  yield chunk({ role: 'assistant', content: null });
  yield chunk({ tool_calls: [{ index: 0, ...wireCallOf(answer) }] });
  yield chunk({}, 'tool_calls', { valve });
  if (includeUsage) yield `data: ${JSON.stringify({ ...base, choices: [], usage: noUsage, valve })}\n\n`;
  yield 'data: [DONE]\n\n';
}
