// The yardstick of the key-leak tests: what an attacker can read back of a key from some output,
// however it was spelled — everything but letters and digits stripped, case ignored, either direction.

/** The key's 8-character runs that `output` spells, ignoring case, direction and anything between. */
export function keyFragmentsIn(output: string, key: string): string[] {
  const skeleton = (text: string) =>
    text
      .normalize('NFKC')
      .toLowerCase()
      .replace(/[^a-z0-9]/g, '');
  const text = skeleton(output);
  const reversed = [...text].reverse().join('');
  const wanted = skeleton(key);
  const found: string[] = [];
  for (let i = 0; i + 8 <= wanted.length; i++) {
    const fragment = wanted.slice(i, i + 8);
    if (text.includes(fragment) || reversed.includes(fragment)) found.push(fragment);
  }
  return found;
}
