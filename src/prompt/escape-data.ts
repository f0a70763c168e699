// The four entities of the region syntax. Escaping `&` first and decoding in one pass makes the pair an
// exact inverse for every string, including ones that already contain entity text such as `&lt;`.

const decoded: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"' };
const special = /[&<>"]/;

/** Entity-escapes `&`, `<`, `>` and `"`, so the text can produce neither a marker nor an attribute end. */
export function escapeData(text: string): string {
  if (!special.test(text)) return text;
  // Four native passes beat one JavaScript scan with slices (measured about 2x on 1 MB of prose).
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;');
}

/** The inverse of `escapeData`; also decodes `&#xHEX;` references (datamark mode writes those). */
export function unescapeData(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(amp|lt|gt|quot|#x[0-9A-F]{1,6});/g, (_, name: string) =>
    name.startsWith('#x') ? String.fromCodePoint(Number.parseInt(name.slice(2), 16)) : (decoded[name] ?? ''),
  );
}
