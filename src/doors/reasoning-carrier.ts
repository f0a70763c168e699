import { z } from 'zod';
import { type ReasoningItem, reasoningItemSchema } from '../contracts/reason-request';
import { decodeBase64Url, encodeBase64Url } from '../encoding/base64';
import { parseJson } from '../encoding/json-depth';
import { decodeUtf8, utf8 } from '../encoding/utf8';
import { invalidParam, type ParamPath } from './invalid-param';

// The opaque string a door hands a client in place of the model's reasoning state, and reads back:
// the reasoning items as JSON, in base64url, behind a prefix. OpenAI Responses clients carry it as a
// reasoning item's `encrypted_content`, Anthropic clients as a thinking block's `signature` (or a
// redacted_thinking block's `data`): opaque fields every client sends back unchanged.

export const reasoningListSchema = z.array(reasoningItemSchema).max(256);

const carrierPrefix = 'valve.r1.';

/** The opaque string that carries reasoning items through a client: the items, as JSON, in base64url. */
export function encodeReasoning(items: readonly ReasoningItem[]): string {
  return carrierPrefix + encodeBase64Url(utf8(JSON.stringify(items)));
}

/** Whether a client's opaque value is one Valve wrote (and may be read with decodeReasoning). */
export function isValveReasoning(value: unknown): value is string {
  return typeof value === 'string' && value.startsWith(carrierPrefix);
}

/** The items an opaque value Valve wrote carries; a 400 naming `path` for anything else. */
export function decodeReasoning(value: unknown, path: ParamPath): ReasoningItem[] {
  const refuse = (why: string) => invalidParam(path, why);
  if (!isValveReasoning(value))
    throw refuse('is not reasoning Valve gave: send back what a Valve answer gave, unchanged');
  const bytes = decodeBase64Url(value.slice(carrierPrefix.length));
  const text = bytes === null ? null : decodeUtf8(bytes);
  const json = text === null ? undefined : parseJson(text);
  const items = json?.ok ? reasoningListSchema.safeParse(json.value) : undefined;
  if (!items?.success) throw refuse('was changed: it does not decode to the reasoning Valve gave');
  return items.data;
}
