// A key can come back spelled in ways no exact search finds: a character at a time between spaces or
// dots, in chunks, case swapped, reversed. What stays the same is its run of letters and digits, so
// the check reads text that way — letters and digits only, lower case — and any run of `keyWindow`
// characters of a key, forwards or backwards, marks the text it was spelled across.

/** How many of a key's letters and digits in a row count as a fragment of it. */
export const keyWindow = 8;

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

/** Whether `text` spells a fragment of one of `keys`, whatever lies between its letters and digits. */
export function spellsKey(text: string, keys: readonly string[]): boolean {
  const skeleton = skeletonOf(text);
  for (const fragment of fragmentsOf(keys)) if (skeleton.includes(fragment)) return true;
  return false;
}
