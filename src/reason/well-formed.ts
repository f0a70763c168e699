const loneSurrogates = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
// JSON.stringify writes a lone surrogate, and only a lone one, as a \uD800–\uDFFF escape.
const escapedLoneSurrogate = /\\ud[89a-f][0-9a-f]{2}/i;

function repair(text: string, count: { replaced: number }): string {
  if (!loneSurrogate.test(text)) return text;
  return text.replace(loneSurrogates, () => {
    count.replaced++;
    return '\uFFFD';
  });
}

/**
 * A model's answer with every lone surrogate (in strings and object keys) replaced by U+FFFD, so it
 * is I-JSON and its receipt can commit to it; `replaced` counts what was changed. An answer without
 * any is returned as it is, after one scan of its JSON.
 */
export function wellFormedDeep<T>(value: T): { value: T; replaced: number } {
  if (!escapedLoneSurrogate.test(JSON.stringify(value) ?? '')) return { value, replaced: 0 };
  const count = { replaced: 0 };
  const walk = (node: unknown): unknown => {
    if (typeof node === 'string') return repair(node, count);
    if (Array.isArray(node)) return node.map(walk);
    if (node !== null && typeof node === 'object') {
      return Object.fromEntries(
        Object.entries(node).map(([key, child]) => [repair(key, count), walk(child)]),
      );
    }
    return node;
  };
  return { value: walk(value) as T, replaced: count.replaced };
}
