// A PDF's page count, read from its bytes without rendering it: the largest `/Count` of a page tree
// node, or the number of `/Type /Page` objects if larger. Page objects inside compressed object
// streams (PDF 1.5+) are found by inflating those streams. Undefined when no page can be found.

const latin1 = new TextDecoder('latin1');
const pageObject = /\/Type\s*\/Page(?![a-zA-Z])/g;
const pageCount =
  /\/Type\s*\/Pages(?![a-zA-Z])[^>]*?\/Count\s+(\d+)|\/Count\s+(\d+)[^>]*?\/Type\s*\/Pages(?![a-zA-Z])/g;
const objectStream = /\/Type\s*\/ObjStm[\s\S]*?stream\r?\n/g;

/** The most streams inflated and the most bytes read from them, so a hostile file costs little. */
const maxStreams = 64;
const maxInflatedBytes = 8 * 1024 * 1024;

function pagesIn(text: string): number {
  let objects = 0;
  for (const _ of text.matchAll(pageObject)) objects++;
  let counted = 0;
  for (const match of text.matchAll(pageCount)) {
    counted = Math.max(counted, Number(match[1] ?? match[2] ?? 0));
  }
  return Math.max(objects, counted);
}

async function inflate(bytes: Uint8Array, budget: { left: number }): Promise<string> {
  const stream = new Blob([bytes.slice()]).stream().pipeThrough(new DecompressionStream('deflate'));
  const reader = stream.getReader();
  let text = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || value === undefined) break;
      budget.left -= value.length;
      text += latin1.decode(value);
      if (budget.left <= 0) break;
    }
  } catch {
    // A stream that does not inflate (another filter, a damaged file) counts nothing.
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return text;
}

export async function countPdfPages(bytes: Uint8Array): Promise<number | undefined> {
  const text = latin1.decode(bytes);
  let pages = pagesIn(text);
  const budget = { left: maxInflatedBytes };
  let streams = 0;
  for (const match of text.matchAll(objectStream)) {
    if (streams++ >= maxStreams || budget.left <= 0) break;
    const start = (match.index ?? 0) + match[0].length;
    let end = text.indexOf('endstream', start);
    if (end === -1) break;
    // The end-of-line before `endstream` is not data: inflate refuses bytes after the stream's end.
    if (text[end - 1] === '\n') end--;
    if (text[end - 1] === '\r') end--;
    pages = Math.max(pages, pagesIn(await inflate(bytes.subarray(start, end), budget)));
  }
  return pages > 0 ? pages : undefined;
}
