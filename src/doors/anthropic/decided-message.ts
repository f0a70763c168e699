import { type DecidedAnswer, decidedAnswerIdOf, decidedExtensionOf } from '../decided-answer';
import { blockFrames, frame } from './message-events';
import { toolUseOf } from './message-response';

// A continuation after an approve or edit as an Anthropic `message` (or its events): one `tool_use`
// block for the decided call, stop_reason `tool_use`, no tokens used, the decision and the token in
// `valve`.

const noUsage = {
  input_tokens: 0,
  output_tokens: 0,
  cache_creation_input_tokens: 0,
  cache_read_input_tokens: 0,
};

export function decidedMessageOf(answer: DecidedAnswer, model: string) {
  return {
    id: `msg_${decidedAnswerIdOf(answer)}`,
    type: 'message' as const,
    role: 'assistant' as const,
    model,
    content: [toolUseOf(answer.call)],
    stop_reason: 'tool_use' as const,
    stop_sequence: null,
    usage: noUsage,
    valve: decidedExtensionOf(answer),
  };
}

export async function* decidedMessageEvents(answer: DecidedAnswer, model: string): AsyncGenerator<string> {
  const { content, stop_reason, valve, ...message } = decidedMessageOf(answer, model);
  yield frame('message_start', { message: { ...message, content: [], stop_reason: null } }) +
    frame('ping', {});
  yield blockFrames(0, toolUseOf(answer.call)).join('');
  yield frame('message_delta', { delta: { stop_reason, stop_sequence: null }, usage: noUsage, valve }) +
    frame('message_stop', {});
}
