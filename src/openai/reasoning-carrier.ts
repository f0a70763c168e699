import { z } from 'zod';
import { type ReasoningItem, reasoningItemSchema } from '../contracts/reason-request';
import type { ReasonResponse } from '../contracts/reason-response';
import { invalidParam, type ParamPath } from '../door/invalid-param';
import { decodeBase64Url, encodeBase64Url } from '../encoding/base64';
import { parseJson } from '../encoding/json-depth';
import { decodeUtf8, utf8 } from '../encoding/utf8';

// How the model's reasoning rides through an OpenAI client and back (docs/openai-door.md "Reasoning"):
// Chat puts it on the assistant message as `valve.reasoning` (a member the SDKs keep through
// `model_dump()` and `to_dict()`), with the thinking text also in `reasoning_content` for display;
// Responses gives a `reasoning` output item whose `encrypted_content` holds it, which a client sends
// back in `input` as it does OpenAI's own.

export const reasoningListSchema = z.array(reasoningItemSchema).max(256);

const carrierPrefix = 'valve.r1.';

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

/** The opaque string a Responses `reasoning` item carries: the items, as JSON, in base64url. */
export function encodeReasoning(items: readonly ReasoningItem[]): string {
  return carrierPrefix + encodeBase64Url(utf8(JSON.stringify(items)));
}

/** The items an `encrypted_content` Valve wrote carries; a 400 naming `path` for anything else. */
export function decodeReasoning(value: unknown, path: ParamPath): ReasoningItem[] {
  const refuse = (why: string) => invalidParam(path, why);
  if (typeof value !== 'string' || !value.startsWith(carrierPrefix))
    throw refuse('is not reasoning Valve gave: send back the encrypted_content of a Valve answer unchanged');
  const bytes = decodeBase64Url(value.slice(carrierPrefix.length));
  const text = bytes === null ? null : decodeUtf8(bytes);
  const json = text === null ? undefined : parseJson(text);
  const items = json?.ok ? reasoningListSchema.safeParse(json.value) : undefined;
  if (!items?.success) throw refuse('was changed: it does not decode to the reasoning Valve gave');
  return items.data;
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
