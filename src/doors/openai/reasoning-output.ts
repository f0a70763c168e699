import type { ReasoningItem } from '../../contracts/reason-request';
import type { ReasonResponse } from '../../contracts/reason-response';
import { encodeReasoning } from '../reasoning-carrier';

// How the model's reasoning rides through an OpenAI client and back (docs/openai-door.md "Reasoning
// models"): Chat puts it on the assistant message as `valve.reasoning` (a member the SDKs keep through
// `model_dump()` and `to_dict()`), with the thinking text also in `reasoning_content` for display;
// Responses gives a `reasoning` output item whose `encrypted_content` holds it, which a client sends
// back in `input` as it does OpenAI's own.

/** The thinking text of an answer's reasoning, for `reasoning_content`; undefined when it has none. */
export function reasoningTextOf(items: readonly ReasoningItem[]): string | undefined {
  const texts = items.flatMap((item) => (item.text === undefined ? [] : [item.text]));
  return texts.length === 0 ? undefined : texts.join('\n\n');
}

/** The Chat assistant message's reasoning members, when the answer has reasoning. */
export function chatReasoningOf(response: Pick<ReasonResponse, 'reasoning'>) {
  const items = response.reasoning;
  if (items === undefined || items.length === 0) return {};
  const text = reasoningTextOf(items);
  return { ...(text !== undefined && { reasoning_content: text }), valve: { reasoning: items } };
}

/** The Responses `reasoning` output item of an answer with reasoning; undefined without. */
export function responsesReasoningItemOf(response: Pick<ReasonResponse, 'reasoning' | 'receiptId'>) {
  const items = response.reasoning;
  if (items === undefined || items.length === 0) return undefined;
  const texts = (summary: boolean) =>
    items.flatMap((item) =>
      item.text !== undefined && Boolean(item.summary) === summary ? [item.text] : [],
    );
  const thinking = texts(false);
  return {
    type: 'reasoning' as const,
    id: `rs_${response.receiptId}`,
    summary: texts(true).map((text) => ({ type: 'summary_text' as const, text })),
    ...(thinking.length > 0 && {
      content: thinking.map((text) => ({ type: 'reasoning_text' as const, text })),
    }),
    encrypted_content: encodeReasoning(items),
    status: 'completed' as const,
  };
}
