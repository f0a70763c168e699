import type { PromptMode } from '../contracts/reason-request';
import { decodeBase64 } from '../encoding/base64';
import { parseJsonWithin } from '../encoding/json-depth';
import { decodeUtf8 } from '../encoding/utf8';
import { datamarkBody } from './datamark-body';
import { encodeBase64Text } from './encode-base64-text';
import { escapeData, unescapeData } from './escape-data';
import { linesBody } from './lines-body';

const jsonSpecial = /[&<>]/g;
const jsonEscapes: Record<string, string> = { '&': '\\u0026', '<': '\\u003c', '>': '\\u003e' };

/**
 * The body of a data region for normalized (so well-formed) text, in the request's mode:
 * - `tags`: entity-escaped text;
 * - `tags+lines`: entity-escaped, every line terminator a `&#xHEX;` reference, so the body is one line;
 * - `tags+datamark`: entity-escaped, then each space becomes `mark` and any other whitespace a
 *   `&#xHEX;` reference, so no whitespace remains and the marking can be undone exactly;
 * - `tags+base64`: base64 of the UTF-8 bytes (its alphabet needs no escaping);
 * - `json`: one JSON string literal with `<`, `>` and `&` written as `\u003c`, `\u003e`, `\u0026`.
 */
export function encodeRegionBody(text: string, mode: PromptMode, mark: string): string {
  switch (mode) {
    case 'tags':
      return escapeData(text);
    case 'tags+lines':
      return linesBody(text);
    case 'tags+datamark':
      return datamarkBody(text, mark);
    case 'tags+base64':
      return encodeBase64Text(text);
    case 'json':
      return JSON.stringify(text).replace(jsonSpecial, (char) => jsonEscapes[char] ?? char);
  }
}

/** The inverse of `encodeRegionBody`: the normalized text a region body carries. Throws if malformed. */
export function decodeRegionBody(body: string, mode: PromptMode, mark: string): string {
  switch (mode) {
    case 'tags':
    case 'tags+lines':
      return unescapeData(body);
    case 'tags+datamark':
      return unescapeData(body.split(mark).join(' '));
    case 'tags+base64': {
      const bytes = decodeBase64(body);
      const text = bytes === null ? null : decodeUtf8(bytes);
      if (text === null) throw new Error('a tags+base64 body must be canonical base64 of UTF-8');
      return text;
    }
    case 'json': {
      const value: unknown = parseJsonWithin(body);
      if (typeof value !== 'string') throw new Error('a json-mode body must be one JSON string literal');
      return value;
    }
  }
}
