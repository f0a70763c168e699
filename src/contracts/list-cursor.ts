import { z } from 'zod';
import { decodeBase64Url, encodeBase64Url } from '../encoding/base64';
import { parseJsonWithin } from '../encoding/json-depth';
import { decodeUtf8, utf8 } from '../encoding/utf8';
import { queryText } from './query-params';
import { onTheWire } from './wire-schema';

// A list endpoint answers one page and, when more rows follow, `next`: the cursor to send back as
// `cursor` for the page after it. A cursor is the place of the page's last row in the list's order
// (base64url of a JSON array), opaque to callers; text that is not a cursor of this list is a 400
// naming `cursor`, never a wrong or empty page.

export type CursorPlace = readonly (string | number)[];

/** Longer than any place a list writes: a tenant, a model name and a day, or a time and two ids. */
const maxCursorLength = 1024;

export const cursorMessage = 'is not a cursor this list answered (send `next` back as it came)';

export function encodeCursor(place: CursorPlace): string {
  return encodeBase64Url(utf8(JSON.stringify(place)));
}

/** The JSON a cursor holds, or undefined when it holds none. */
export function decodeCursor(text: string): unknown {
  const bytes = decodeBase64Url(text);
  const json = bytes === null ? null : decodeUtf8(bytes);
  if (json === null) return undefined;
  try {
    return parseJsonWithin(json) as unknown;
  } catch {
    return undefined;
  }
}

/** The `cursor` query parameter of a list whose places `place` describes. */
export function queryCursor<T extends z.ZodType>(place: T) {
  return onTheWire(
    queryText()
      .max(maxCursorLength, cursorMessage)
      .transform((text, ctx): z.output<T> => {
        const parsed = place.safeParse(decodeCursor(text));
        if (parsed.success) return parsed.data;
        ctx.issues.push({ code: 'custom', message: cursorMessage, input: text });
        return z.NEVER;
      }),
    { type: 'string', minLength: 1, maxLength: maxCursorLength, pattern: '^[A-Za-z0-9_-]+$' },
  );
}

/**
 * The page of `rows` (read as `limit + 1` rows, so a full last page does not promise another) and the
 * cursor after it: the place of its last row, or null when no row follows.
 */
export function pageOf<T>(
  rows: readonly T[],
  limit: number,
  placeOf: (row: T) => CursorPlace,
): { items: T[]; next: string | null } {
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  return { items, next: rows.length > limit && last !== undefined ? encodeCursor(placeOf(last)) : null };
}
