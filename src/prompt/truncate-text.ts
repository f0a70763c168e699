/**
 * The text cut to at most `maxChars` UTF-16 units without splitting a surrogate pair, and without
 * ending in the ZWJ of an emoji sequence (a dangling joiner is the invisible character normalization
 * removes). It runs on normalized text before escaping, so no entity or marker can be cut.
 */
export function truncateText(text: string, maxChars: number): { text: string; truncated: boolean } {
  if (text.length <= maxChars) return { text, truncated: false };
  let end = Math.max(0, Math.floor(maxChars));
  const last = text.charCodeAt(end - 1);
  if (end > 0 && last >= 0xd800 && last <= 0xdbff) end--;
  if (end > 0 && text.charCodeAt(end - 1) === 0x200d) end--;
  return { text: text.slice(0, end), truncated: true };
}
