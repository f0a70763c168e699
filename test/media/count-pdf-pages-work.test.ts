import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countPdfPages } from '../../src/media/count-pdf-pages';
import { deflate, objectStreamOf, pdfOfObjects, streamObject } from '../helpers/pdf-samples';

// The counter's work is counted in lexer steps, never timed: for each input built to be slow, work at
// 4n is at most 4.5 times work at n, and at most a few steps a byte read or inflated. Then a property:
// however a page tree is escaped, untyped, commented or packed, the count never falls below its leaves.

const encoder = new TextEncoder();
const catalog = '<< /Type /Catalog /Pages 2 0 R >>';

interface Work {
  steps: number;
  bytes: number;
}

/** A hostile file of size about `n`, and how many bytes will be read or inflated for it. */
type Hostile = (n: number) => Promise<{ pdf: Uint8Array; inflated: number }>;

const plain =
  (unit: string, head = '', tail = ''): Hostile =>
  async (n) => ({ pdf: encoder.encode(head + unit.repeat(Math.ceil(n / unit.length)) + tail), inflated: 0 });

const hostile: [string, Hostile][] = [
  [
    'an object stream inflating to `/Count 1 ` over and over',
    async (n) => {
      const text = `<< /Type /Pages ${'/Count 1 '.repeat(Math.ceil(n / 9))}>>`;
      const stream = streamObject('/Type /ObjStm /N 1 /First 0 /Filter /FlateDecode', await deflate(text));
      return { pdf: pdfOfObjects([catalog, stream]), inflated: text.length };
    },
  ],
  ['`/Type /ObjStm` streams with no endstream', plain('<< /Type /ObjStm /N 1 /First 0 >>\nstream\n')],
  ['deeply nested `<<`', plain('<<')],
  ['a long run of `#` in a name', plain('#', '/')],
  ['unterminated strings in a /Kids array', plain('(', '/Kids [')],
  ['nested /Kids arrays', plain('/Kids [')],
  ['a /Count waiting behind comments', plain('/Count %\n')],
  ['escaped parentheses', plain('\\(', '/Kids [(')],
];

async function workOf(build: Hostile, n: number): Promise<Work> {
  const { pdf, inflated } = await build(n);
  const meter = { steps: 0 };
  await countPdfPages(pdf, { meter });
  return { steps: meter.steps, bytes: pdf.length + inflated };
}

describe('PDF page count: work', () => {
  it.each(hostile)('grows linearly for %s', async (_, build) => {
    const n = 192 * 1024;
    const small = await workOf(build, n);
    const large = await workOf(build, 4 * n);
    expect(large.steps).toBeLessThanOrEqual(4.5 * small.steps);
    expect(large.steps).toBeLessThanOrEqual(8 * large.bytes);
  });
});

/** A page tree of `leaves` leaves under intermediate nodes of `fanout` kids, as object texts. */
function pageTree(leaves: number, fanout: number): string[] {
  // Objects: 1 catalog, 2 root, then the leaves, then intermediate nodes.
  const objects: string[] = [catalog, ''];
  let level = Array.from({ length: leaves }, (_, i) => {
    objects.push('<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>');
    return { ref: i + 3, count: 1 };
  });
  while (level.length > fanout) {
    const next: { ref: number; count: number }[] = [];
    for (let i = 0; i < level.length; i += fanout) {
      const kids = level.slice(i, i + fanout);
      const count = kids.reduce((sum, kid) => sum + kid.count, 0);
      objects.push(`<< /Type /Pages /Kids [${kids.map((k) => `${k.ref} 0 R`).join(' ')}] /Count ${count} >>`);
      next.push({ ref: objects.length, count });
    }
    level = next;
  }
  objects[1] = `<< /Type /Pages /Kids [${level.map((k) => `${k.ref} 0 R`).join(' ')}] /Count ${leaves} >>`;
  return objects;
}

const escaped = (name: string, mask: number) =>
  [...name].map((c, i) => (mask & (1 << i) ? `#${c.charCodeAt(0).toString(16)}` : c)).join('');

describe('PDF page count: a property', () => {
  it('never counts fewer pages than a tree has leaves, however it is written', async () => {
    const mutation = fc.record({
      leaves: fc.integer({ min: 1, max: 60 }),
      fanout: fc.integer({ min: 2, max: 8 }),
      escapeMask: fc.integer({ min: 0, max: 31 }),
      dropTypes: fc.boolean(),
      dropCounts: fc.boolean(),
      lieCount: fc.integer({ min: 0, max: 3 }),
      separator: fc.constantFrom(' ', '\n', '\r\n', ' %note\n', '\t', '%)(]\r'),
      packed: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(mutation, async (m) => {
        const objects = pageTree(m.leaves, m.fanout).map((object) => {
          let text = object
            .replaceAll('/Type', `/${escaped('Type', m.escapeMask)}`)
            .replaceAll('/Page', `/${escaped('Page', m.escapeMask >> 1)}`)
            .replaceAll('/Kids', `/${escaped('Kids', m.escapeMask >> 2)}`)
            .replaceAll('/Count', `/${escaped('Count', m.escapeMask >> 3)}`);
          if (m.dropTypes) text = text.replace(/\/[^ ]*\s+\/[^ ]*P[^ ]*/, '');
          if (m.dropCounts)
            text = text.replace(/(\/\S+) \d+ >>$/, (all, key: string) => (key === '/Parent' ? all : '>>'));
          text = text.replace(/\/Count (\d+)/, (_, n: string) => `/Count ${Math.min(Number(n), m.lieCount)}`);
          return text.replaceAll(' ', m.separator);
        });
        const pdf = m.packed ? pdfOfObjects([await objectStreamOf(objects, 1)]) : pdfOfObjects(objects);
        const count = await countPdfPages(pdf);
        expect(count.pages).toBeGreaterThanOrEqual(m.leaves);
      }),
      { numRuns: 200 },
    );
  });
});
