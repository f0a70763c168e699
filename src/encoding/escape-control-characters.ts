// Text that came from someone else (a log server's answer, a bundle's values) is printed to an
// auditor's terminal. A raw ESC or its one-byte C1 form can erase a line and paint a green VERIFIED;
// a bidi control can reorder what follows; a line break can forge a check line. Each such character
// is written as a JSON-style `\uXXXX` escape instead: visible to the reader, inert to the terminal,
// and inside a JSON string still the same value.

// C0 controls (line breaks and tabs included), DEL, C1 controls, the line and paragraph separators,
// and the bidi controls: ALM, LRM, RLM, LRE…RLO and LRI…PDI.
// biome-ignore lint/suspicious/noControlCharactersInRegex: escaping control characters is the point.
const controlCharacters = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/g;

const escaped = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** `text` with every control and bidi character written as `\uXXXX`, so it prints as one inert line. */
export function escapeControlCharacters(text: string): string {
  return text.replace(controlCharacters, escaped);
}

/** Multi-line text (a report, pretty-printed JSON) with its line breaks kept and every other control escaped. */
export function escapeControlCharactersInLines(text: string): string {
  return text.split('\n').map(escapeControlCharacters).join('\n');
}
