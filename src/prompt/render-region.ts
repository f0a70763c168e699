import type { MediaBlock } from '../model/message';
import { escapeData } from './escape-data';
import type { Segment } from './media-blocks';

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
  /** The MIME types of the media parts the region holds after its text, in order. */
  media?: string[];
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
  return `${openMarker(nonce, attributes)}>\n${body}\n${regionClose(nonce)}`;
}

function openMarker(nonce: string, attributes: RegionAttributes): string {
  let open = `${regionOpenPrefix(nonce)} id="${escapeData(attributes.id)}"`;
  if (attributes.label !== undefined) open += ` label="${escapeData(attributes.label)}"`;
  if (attributes.trust === 'trusted') open += ' trust="trusted"';
  if (attributes.truncated) open += ' truncated="true"';
  if (attributes.media !== undefined) open += ` media="${escapeData(attributes.media.join(' '))}"`;
  return open;
}

/**
 * A region that holds media: the opener with a `media` attribute listing their MIME types, the body,
 * a newline, the media blocks, a newline and the closer — so on the wire a text part opens the
 * region, the media parts follow, and a text part closes it. Read as one text with each media block
 * as U+FFFC (`mediaPlaceholder`), its body is the encoded text, a newline, and one U+FFFC per part.
 */
export function renderMediaRegion(
  nonce: string,
  attributes: RegionAttributes,
  body: string,
  media: readonly MediaBlock[],
): Segment[] {
  const opener = openMarker(nonce, { ...attributes, media: media.map((m) => m.mime_type) });
  return [`${opener}>\n${body}\n`, ...media, `\n${regionClose(nonce)}`];
}
