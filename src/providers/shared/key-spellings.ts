// A key can come back spelled in ways no exact search finds: a character at a time between spaces or
// dots, in chunks, case swapped, reversed. What stays the same is its run of letters and digits, so
// the check reads text that way — letters and digits only, lower case — and any run of `keyWindow`
// characters of a key, forwards or backwards, marks the text it was spelled across.

/** How many of a key's letters and digits in a row count as a fragment of it. */
export const keyWindow = 8;

const alphanumeric = /[A-Za-z0-9]/;

function skeletonOf(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** Every `keyWindow`-long run of each key's letters and digits, forwards and backwards. */
function fragmentsOf(keys: readonly string[]): Set<string> {
  const fragments = new Set<string>();
  for (const key of keys) {
    const forwards = skeletonOf(key);
    const backwards = [...forwards].reverse().join('');
    for (const skeleton of [forwards, backwards]) {
      for (let i = 0; i + keyWindow <= skeleton.length; i++) fragments.add(skeleton.slice(i, i + keyWindow));
    }
  }
  return fragments;
}

/**
 * `text` with every stretch that spells a fragment of one of `keys` — whatever lies between its
 * letters and digits — replaced by `replacement`.
 */
export function redactKeySpellings(text: string, keys: readonly string[], replacement: string): string {
  const fragments = fragmentsOf(keys);
  if (fragments.size === 0) return text;
  // The text's letters and digits, lower case, and where each stands in the text.
  let skeleton = '';
  const at: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const char = text[i] as string;
    if (!alphanumeric.test(char)) continue;
    skeleton += char.toLowerCase();
    at.push(i);
  }
  const covered = new Uint8Array(text.length);
  for (const fragment of fragments) {
    for (let from = skeleton.indexOf(fragment); from !== -1; from = skeleton.indexOf(fragment, from + 1)) {
      covered.fill(1, at[from], (at[from + keyWindow - 1] as number) + 1);
    }
  }
  let out = '';
  for (let i = 0; i < text.length; i++) {
    if (!covered[i]) out += text[i];
    else if (i === 0 || !covered[i - 1]) out += replacement;
  }
  return out;
}

/** Whether `text` spells a fragment of one of `keys` (see redactKeySpellings). */
export function spellsKey(text: string, keys: readonly string[]): boolean {
  const skeleton = skeletonOf(text);
  for (const fragment of fragmentsOf(keys)) if (skeleton.includes(fragment)) return true;
  return false;
}
