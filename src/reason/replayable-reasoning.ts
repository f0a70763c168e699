import type { ReasonRequest } from '../contracts/reason-request';
import type { Message } from '../model/message';
import type { ModelWarning } from '../model/model-response';

interface Target {
  provider: string;
  model: string;
}

const sameModel = (origin: Target | undefined, target: Target) =>
  origin !== undefined && origin.provider === target.provider && origin.model === target.model;

/**
 * The messages one attempt sends: reasoning blocks only where the model that produced them is the one
 * called. Another model cannot read a signature it did not make (Claude and Gemini refuse it), and
 * thinking text sent to it would be text the caller never wrote, in no channel that says what it is.
 */
export function replayableReasoning(messages: Message[], target: Target): Message[] {
  if (!messages.some((m) => m.content.some((b) => b.type === 'reasoning' && !sameModel(b.origin, target))))
    return messages;
  return messages.map((message) => ({
    ...message,
    content: message.content.filter((block) => block.type !== 'reasoning' || sameModel(block.origin, target)),
  }));
}

/** Says when the conversation's reasoning was not sent because another model answered. */
export function unreplayedWarnings(
  request: Pick<ReasonRequest, 'conversation'>,
  target: Target,
): ModelWarning[] {
  const dropped = (request.conversation ?? []).flatMap((turn) =>
    turn.role === 'assistant' ? (turn.reasoning ?? []).filter((item) => !sameModel(item, target)) : [],
  );
  if (dropped.length === 0) return [];
  const from = [...new Set(dropped.map((item) => `${item.provider}/${item.model}`))].join(', ');
  return [
    {
      code: 'reasoning.not_replayed',
      message: `${dropped.length} reasoning item(s) of the conversation came from ${from} and were not sent to ${target.provider}/${target.model}: a model is sent only its own reasoning.`,
    },
  ];
}
