// The `tags+lines` mode's body: the region is one line. Measured on a 0.5B model (docs/trust.md), text
// that starts a line of its own after a forged "end of the e-mail" reads as a new request; written on
// the data's one line it reads as data, and the words stay as they are, so the task is kept.

/** What `tags+lines` rewrites: the four escaped characters and every line terminator. */
export const linesSpecial = /[&<>"\n\v\f\r\u2028\u2029]/g;

const entities: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };

/** One character of `linesSpecial` as `tags+lines` writes it: its entity, or its `&#xHEX;` reference. */
export function lineEscape(char: string): string {
  return entities[char] ?? `&#x${char.charCodeAt(0).toString(16).toUpperCase()};`;
}

/** `text` entity-escaped (`& < > "`), with every line terminator written as its `&#xHEX;` reference. */
export function linesBody(text: string): string {
  return text.replace(linesSpecial, lineEscape);
}
