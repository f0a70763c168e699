import type { ContextItem } from '../contracts/reason-request';
import { type NormalizedText, normalizeText } from './normalize-text';

/**
 * The text of a context item's content: strings as they are, objects and arrays as compact JSON, none
 * (an item of media only) as the empty text.
 */
export function serializeContent(content: ContextItem['content']): string {
  if (content === undefined) return '';
  return typeof content === 'string' ? content : JSON.stringify(content);
}

/**
 * A context item's content as the text its region carries (before any truncation): serialized, then
 * normalized. `mark` is datamark mode's private-use character, removed from the input first.
 */
export function normalizeContent(content: ContextItem['content'], mark?: string): NormalizedText {
  return normalizeText(serializeContent(content), mark);
}
