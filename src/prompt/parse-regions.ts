import { unescapeData } from './escape-data';
import { regionClose, regionOpenPrefix } from './render-region';

export interface ParsedRegion {
  /** Attribute values, entity-decoded. */
  attributes: Record<string, string>;
  /** The body exactly as written between the framing newlines (still encoded). */
  body: string;
}

export interface ParsedRegions {
  regions: ParsedRegion[];
  /** Anything that breaks the syntax: a stray closer, a nested opener, a malformed open marker. */
  errors: string[];
}

const attribute = / ([a-z]+)="([^"<>]*)"/y;

/**
 * The reference parser of the region syntax, for one text and the request's nonce. Strict: every opener
 * must be well formed and closed by the next closer, with no opener in between, and no closer may
 * stand alone. Pure, linear in the text, usable by any tool that audits a rendered prompt.
 */
export function parseRegions(text: string, nonce: string): ParsedRegions {
  const open = regionOpenPrefix(nonce);
  const close = regionClose(nonce);
  const regions: ParsedRegion[] = [];
  const errors: string[] = [];
  let at = 0;
  for (;;) {
    const start = text.indexOf(open, at);
    const stray = text.indexOf(close, at);
    if (stray !== -1 && (start === -1 || stray < start)) {
      errors.push(`a closer at ${stray} has no opener`);
    }
    if (start === -1) break;
    const attributes: Record<string, string> = {};
    let cursor = start + open.length;
    for (;;) {
      attribute.lastIndex = cursor;
      const match = attribute.exec(text);
      if (match === null) break;
      const [, name, value] = match as unknown as [string, string, string];
      if (name in attributes) errors.push(`attribute ${name} repeated at ${cursor}`);
      attributes[name] = unescapeData(value);
      cursor = attribute.lastIndex;
    }
    if (!text.startsWith('>\n', cursor)) {
      errors.push(`a malformed opener at ${start}`);
      at = cursor;
      continue;
    }
    const bodyStart = cursor + 2;
    const end = text.indexOf(`\n${close}`, bodyStart);
    if (end === -1) {
      errors.push(`the opener at ${start} is never closed`);
      break;
    }
    const body = text.slice(bodyStart, end);
    if (body.includes(open)) errors.push(`an opener nested inside the region at ${start}`);
    regions.push({ attributes, body });
    at = end + 1 + close.length;
  }
  return { regions, errors };
}
