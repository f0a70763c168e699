import { escapeData } from './escape-data';

/**
 * The attributes of a region, in the order they are written. Values are escaped when rendered. Only a
 * trusted region says so (`trust="trusted"`); a region without the attribute is untrusted. The injection
 * eval found that calling the data "untrusted" (and a privacy level the model has no use for) made small
 * models less willing to use it for the task (docs/trust.md).
 */
export interface RegionAttributes {
  id: string;
  label?: string;
  trust: 'trusted' | 'untrusted';
  truncated?: boolean;
}

/** The marker prefix every region of this request starts with. */
export function regionOpenPrefix(nonce: string): string {
  return `<data-${nonce}`;
}

export function regionClose(nonce: string): string {
  return `</data-${nonce}>`;
}

/**
 * One data region: `<data-N id="…" label="…">` (a trusted one adds `trust="trusted"`), a newline, the already-encoded
 * body, a newline, `</data-N>`. The newlines are framing, not part of the body.
 */
export function renderRegion(nonce: string, attributes: RegionAttributes, body: string): string {
  let open = `${regionOpenPrefix(nonce)} id="${escapeData(attributes.id)}"`;
  if (attributes.label !== undefined) open += ` label="${escapeData(attributes.label)}"`;
  if (attributes.trust === 'trusted') open += ' trust="trusted"';
  if (attributes.truncated) open += ' truncated="true"';
  return `${open}>\n${body}\n${regionClose(nonce)}`;
}
