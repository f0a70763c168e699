import type { DisclosureBundle } from '../../src/contracts/receipt-bodies';

// One-byte mutations of a disclosure bundle, shared by the verifier's own test and the test that
// holds the browser page and the CLI to the same reports: a bit of one character flipped, or a key
// moved to the next base64url letter, in each part of the bundle.

export function flip(text: string, at: number): string {
  return text.slice(0, at) + String.fromCharCode(text.charCodeAt(at) ^ 1) + text.slice(at + 1);
}

const B64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** One character of base64url text replaced by the next one of the alphabet: a different key. */
export function nextB64(text: string, at: number): string {
  const next = B64URL[(B64URL.indexOf(text[at] as string) + 1) % 64] as string;
  return text.slice(0, at) + next + text.slice(at + 1);
}

/** The value with one byte of its JSON text changed (from the front, where digits still count), still JSON. */
export function mutateValue(value: unknown): unknown {
  const text = JSON.stringify(value);
  for (let at = 0; at < text.length; at++) {
    if (!/[A-Za-z0-9]/.test(text[at] as string)) continue;
    try {
      return JSON.parse(flip(text, at));
    } catch {
      // not JSON any more; try another byte
    }
  }
  return text === '[]' ? [0] : text === 'null' ? 0 : `${text}!`;
}

export interface Mutation {
  name: string;
  bundle: DisclosureBundle;
}

/** Every one-byte mutation of a full-salt bundle and of the same bundle opened by keys. */
export function oneByteMutations(full: DisclosureBundle, byKeys: DisclosureBundle): Mutation[] {
  const out: Mutation[] = [];
  const segments = full.jws.split('.');
  ['header', 'payload', 'signature'].forEach((part, i) => {
    const segment = segments[i] as string;
    const offset = segments.slice(0, i).reduce((n, s) => n + s.length + 1, 0);
    for (const at of [0, Math.floor(segment.length / 2), segment.length - 2]) {
      out.push({ name: `jws ${part} byte ${at}`, bundle: { ...full, jws: flip(full.jws, offset + at) } });
    }
  });
  for (const [field, opened] of Object.entries(full.open)) {
    const value = { ...full, open: { ...full.open, [field]: { value: mutateValue(opened.value) } } };
    out.push({ name: `value of ${field}`, bundle: value });
    const keyed = byKeys.open[field];
    if (keyed?.key === undefined) continue;
    const key = { ...byKeys, open: { ...byKeys.open, [field]: { ...keyed, key: nextB64(keyed.key, 0) } } };
    out.push({ name: `key of ${field}`, bundle: key });
  }
  if (full.salt !== undefined) out.push({ name: 'salt', bundle: { ...full, salt: flip(full.salt, 5) } });
  const lines = full.proof.split('\n');
  for (let i = 0; i < lines.length - 1; i++) {
    const line = lines[i] as string;
    const at = line.startsWith('index ') ? line.length - 1 : Math.floor(line.length / 2);
    const mutated = line === '' ? 'A' : flip(line, at);
    out.push({
      name: `proof line ${i}`,
      bundle: { ...full, proof: [...lines.slice(0, i), mutated, ...lines.slice(i + 1)].join('\n') },
    });
  }
  return out;
}
