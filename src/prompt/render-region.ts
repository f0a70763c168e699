import { escapeData } from './escape-data';

/** The attributes of a region, in the order they are written. Values are escaped when rendered. */
export interface RegionAttributes {
  id: string;
  label?: string;
  trust: 'trusted' | 'untrusted';
  privacy?: string;
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
 * One data region: `<data-N id="…" label="…" trust="…" privacy="…">`, a newline, the already-encoded
 * body, a newline, `</data-N>`. The newlines are framing, not part of the body.
 */
export function renderRegion(nonce: string, attributes: RegionAttributes, body: string): string {
  let open = `${regionOpenPrefix(nonce)} id="${escapeData(attributes.id)}"`;
  if (attributes.label !== undefined) open += ` label="${escapeData(attributes.label)}"`;
  open += ` trust="${attributes.trust}"`;
  if (attributes.privacy !== undefined) open += ` privacy="${escapeData(attributes.privacy)}"`;
  if (attributes.truncated) open += ' truncated="true"';
  return `${open}>\n${body}\n${regionClose(nonce)}`;
}
