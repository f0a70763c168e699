import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { decodeCursor, encodeCursor, pageOf, queryCursor } from '../../src/contracts/list-cursor';
import { encodeBase64Url } from '../../src/encoding/base64';
import { utf8 } from '../../src/encoding/utf8';

const keysCursor = queryCursor(z.tuple([z.number().int(), z.string()]));

describe('list cursors', () => {
  it('reads back the place it wrote', () => {
    const cursor = encodeCursor([1767225600123, 'key_0123456789abcdef']);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(keysCursor.parse(cursor)).toEqual([1767225600123, 'key_0123456789abcdef']);
  });

  it.each([
    ['not base64url', 'a+b/c'],
    ['base64url of text that is not JSON', encodeBase64Url(utf8('[1, key'))],
    ['a place of another list', encodeCursor(['acme'])],
    ['a place of the wrong types', encodeCursor(['1767225600123', 'key_1'])],
    ['too long', 'A'.repeat(1025)],
  ])('refuses a cursor that is %s, saying so', (_, text) => {
    const result = keysCursor.safeParse(text);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe(
      'is not a cursor this list answered (send `next` back as it came)',
    );
  });

  it('decodes nothing from text that holds no JSON', () => {
    expect(decodeCursor('!!')).toBeUndefined();
  });

  it('gives a next cursor only when a row follows the page', () => {
    const rows = [{ n: 1 }, { n: 2 }, { n: 3 }];
    const full = pageOf(rows, 2, (row) => [row.n]);
    expect(full.items).toEqual([{ n: 1 }, { n: 2 }]);
    expect(decodeCursor(full.next ?? '')).toEqual([2]);
    // Exactly `limit` rows read means the page is the last one.
    expect(pageOf(rows.slice(0, 2), 2, (row) => [row.n])).toEqual({ items: rows.slice(0, 2), next: null });
    expect(pageOf([], 2, () => [])).toEqual({ items: [], next: null });
  });
});
