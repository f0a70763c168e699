import { describe, expect, it } from 'vitest';
import { countPdfPages } from '../../src/media/count-pdf-pages';
import { unknownPdfPages } from '../../src/model/media-tokens';
import { deflate, objectStreamOf, pdfOfObjects, repeat, streamObject } from '../helpers/pdf-samples';

// Files crafted to be priced below the pages a reader renders: names written with `#xx` escapes, page
// trees without /Type, trees in object streams, in comments and strings a reader may start inside,
// /Kids arrays given by reference; and streams Valve cannot decode, which must be priced at the limit.

const catalog = '<< /Type /Catalog /Pages 2 0 R >>';
const decoyTree = '<< /Type /Pages /Kids [3 0 R] /Count 1 >>';
const decoyPage = '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>';
const encoder = new TextEncoder();

async function pages(pdf: Uint8Array): Promise<number> {
  const count = await countPdfPages(pdf);
  expect(count.basis).not.toBe('limit');
  return count.pages;
}

describe('PDF pages: names with #xx escapes (ISO 32000-1 §7.3.5)', () => {
  it('counts 1,000 pages typed /P#61ge beside one plain decoy page', async () => {
    const hidden = Array.from({ length: 1000 }, () => '<< /Type /P#61ge /Parent 2 0 R >>');
    expect(await pages(pdfOfObjects([catalog, decoyTree, decoyPage, ...hidden]))).toBeGreaterThanOrEqual(
      1000,
    );
  });

  it('reads /C#6funt 1000 as a /Count of 1,000', async () => {
    const tree = '<< /Type /Pages /Kids [3 0 R] /C#6funt 1000 >>';
    const count = await countPdfPages(pdfOfObjects([catalog, tree, decoyPage]));
    expect(count).toEqual({ pages: 1000, basis: 'bounded', why: '1000 pages: the largest /Count' });
  });

  it('reads /K#69ds and a /Count behind a comment', async () => {
    const tree = `<< /K#69ds [${repeat('3 0 R', 40)}] /Count %${'x'.repeat(20)}\n 30 >>`;
    const count = await countPdfPages(pdfOfObjects([catalog, tree, decoyPage]));
    expect(count).toEqual({ pages: 40, basis: 'bounded', why: '40 pages: the entries of /Kids arrays' });
  });
});

describe('PDF pages: page trees a reader walks without /Type', () => {
  const untyped = ['<< /Pages 2 0 R >>', `<< /Kids [${repeat('3 0 R', 500)}] >>`, '<< /Parent 2 0 R >>'];

  it('bounds a tree with no /Type at all by its 500 /Kids references to one leaf', async () => {
    expect(await pages(pdfOfObjects(untyped))).toBe(500);
  });

  it('finds the same tree inside a deflated object stream', async () => {
    const pdf = pdfOfObjects([await objectStreamOf(untyped, 1), decoyTree]);
    expect(new TextDecoder('latin1').decode(pdf)).not.toContain('/Kids [3 0 R 3');
    expect(await pages(pdf)).toBeGreaterThanOrEqual(500);
  });

  it('finds it in an object stream without /Type, which a reader loads by its /N and /First', async () => {
    const stream = await objectStreamOf(untyped, 1, false);
    expect(await pages(pdfOfObjects([stream, decoyTree]))).toBeGreaterThanOrEqual(500);
  });

  it('bounds a /Kids array given by reference by every reference in the file', async () => {
    const tree = '<< /Type /Pages /Kids 4 0 R /Count 1 >>';
    const count = await countPdfPages(pdfOfObjects([catalog, tree, decoyPage, `[${repeat('3 0 R', 300)}]`]));
    expect(count.pages).toBeGreaterThanOrEqual(300);
    expect(count.basis).toBe('bounded');
  });
});

describe('PDF pages: trees where a reader may start that a parser from the first byte would skip', () => {
  const tree = `<< /Kids [${repeat('9 0 R', 200)}] >>`;

  it('counts a tree written on a comment line (a cross-reference offset can point into it)', async () => {
    expect(
      await pages(pdfOfObjects([catalog, decoyTree, decoyPage, `% 9 0 obj ${tree}`])),
    ).toBeGreaterThanOrEqual(200);
  });

  it('counts a tree inside a string', async () => {
    expect(await pages(pdfOfObjects([catalog, decoyTree, decoyPage, `(${tree})`]))).toBeGreaterThanOrEqual(
      200,
    );
  });

  it('counts /Kids entries after a string holding a `]`, as a reader skips the string', async () => {
    const kids = `<< /Kids [(]) ${repeat('3 0 R', 200)}] >>`;
    expect(await pages(pdfOfObjects([catalog, kids, decoyPage]))).toBe(200);
  });

  it('counts /Kids entries after a `]` hidden in a comment or a hex string', async () => {
    const kids = `<< /Kids [%]\n<]> ${repeat('3 0 R', 200)}] >>`;
    expect(await pages(pdfOfObjects([catalog, kids, decoyPage]))).toBe(200);
  });
});

describe('PDF pages: what cannot be bounded is priced at the limit', () => {
  const hexStream = (entries: string) => {
    const body = encoder.encode(
      Array.from(encoder.encode(repeat(decoyPage, 5)), (b) => b.toString(16)).join(''),
    );
    return streamObject(`/Type /ObjStm /N 5 /First 0 ${entries}`, body);
  };

  it.each([
    ['/Filter /ASCIIHexDecode', '/Filter /ASCIIHexDecode'],
    ['a filter array', '/Filter [/ASCIIHexDecode /FlateDecode]'],
    ['decode parameters (a predictor)', '/Filter /FlateDecode /DecodeParms << /Predictor 12 >>'],
    ['a filter given by reference', '/Filter 7 0 R'],
  ])('an object stream with %s', async (_, entries) => {
    const count = await countPdfPages(pdfOfObjects([catalog, decoyTree, decoyPage, hexStream(entries)]));
    expect(count).toMatchObject({ pages: unknownPdfPages, basis: 'limit' });
  });

  it('an encrypted file (/Encrypt in its trailer)', async () => {
    const pdf = concat(pdfOfObjects([catalog, decoyTree, decoyPage]), 'trailer << /Encrypt 9 0 R >>');
    expect(await countPdfPages(pdf)).toMatchObject({ basis: 'limit', why: expect.stringMatching(/Encrypt/) });
  });

  it('an object stream that never ends, or does not inflate', async () => {
    const open = encoder.encode('<< /Type /ObjStm /N 1 /First 0 /Filter /FlateDecode >>\nstream\nxyz');
    expect(await countPdfPages(pdfOfObjects([catalog, decoyTree, decoyPage, open]))).toMatchObject({
      basis: 'limit',
    });
    const junk = streamObject('/Type /ObjStm /N 1 /First 0 /Filter /FlateDecode', encoder.encode('not zlib'));
    expect(await countPdfPages(pdfOfObjects([catalog, decoyTree, decoyPage, junk]))).toMatchObject({
      basis: 'limit',
    });
  });

  it('object streams inflating past the budget, instead of reading a part of them', async () => {
    const bomb = streamObject(
      '/Type /ObjStm /N 1 /First 0 /Filter /FlateDecode',
      await deflate(new Uint8Array(9 * 1024 * 1024).fill(32)),
    );
    expect(await countPdfPages(pdfOfObjects([catalog, decoyTree, decoyPage, bomb]))).toMatchObject({
      basis: 'limit',
      why: expect.stringMatching(/inflate past/),
    });
  });

  it('more object streams than the budget', async () => {
    const streams = await Promise.all(Array.from({ length: 65 }, () => objectStreamOf([decoyPage])));
    expect(await countPdfPages(pdfOfObjects([catalog, decoyTree, decoyPage, ...streams]))).toMatchObject({
      basis: 'limit',
    });
  });
});

function concat(pdf: Uint8Array, text: string): Uint8Array {
  const tail = encoder.encode(text);
  const out = new Uint8Array(pdf.length + tail.length);
  out.set(pdf);
  out.set(tail, pdf.length);
  return out;
}
