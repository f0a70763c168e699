import { unknownPdfPages } from '../model/media-tokens';
import { type InflateBudget, inflateWithin } from './inflate-within';
import { emptyEvidence, maxOpenKids, type PdfPageEvidence, scanPdfBytes } from './pdf-page-evidence';
import type { PdfMeter } from './pdf-tokens';
import type { PricingBasis } from './pricing-basis';

// An upper bound on the pages any PDF reader could render, read from the bytes without rendering
// them, in work linear in the bytes read and inflated. Readers disagree on what a page is: some trust
// the root's /Count, some walk /Kids from the catalog (a node's /Type is often ignored), some, when the
// tree is broken, gather every dictionary typed /Page. So the count is the largest of the three:
// - dictionaries whose /Type is /Page (names decoded, §7.3.5: `/P#61ge` is `/Page`);
// - the largest /Count anywhere (a node may lack its /Type);
// - the entries of every /Kids array: each page a reader renders is reached through one entry (the same
//   leaf may be referenced many times), so their number bounds the leaves. When a /Kids array is given
//   by reference, its entries are not inside a `/Kids [`, and every `R` and `<<` in the file bounds it.
// Object streams (PDF 1.5) are inflated and read the same way. A stream a reader could load objects
// from that Valve cannot decode (another filter, predictors, encryption) or that costs more than the
// budget leaves the file unbounded: `limit`.

export interface PdfPageCount {
  pages: number;
  basis: PricingBasis;
  why: string;
}

/** The most object streams inflated and the most bytes inflated from them, so a hostile file costs little. */
export const maxStreams = 64;
export const maxInflatedBytes = 8 * 1024 * 1024;

export interface CountOptions {
  /** Receives the work done, in lexer steps (linear in the bytes read and inflated). */
  meter?: PdfMeter;
}

const limit = (why: string): PdfPageCount => ({ pages: unknownPdfPages, basis: 'limit', why });

function unbounded(evidence: PdfPageEvidence): string | undefined {
  if (evidence.encrypted) return 'encrypted (/Encrypt): its object streams cannot be read';
  if (evidence.tooManyKids) return `more than ${maxOpenKids} /Kids arrays open at once`;
  return undefined;
}

function conclude(evidence: PdfPageEvidence): PdfPageCount {
  const kids = evidence.indirectKids ? evidence.anyEntries : evidence.kidsEntries;
  const kidsWhy = evidence.indirectKids
    ? 'every reference (a /Kids array is given by reference)'
    : 'the entries of /Kids arrays';
  const claims: [number, string][] = [
    [evidence.pageTypes, 'dictionaries typed /Page'],
    [evidence.largestCount, 'the largest /Count'],
    [kids, kidsWhy],
  ];
  const [pages, what] = claims.reduce((best, claim) => (claim[0] > best[0] ? claim : best));
  if (pages <= 0) return limit('no page found');
  const agree = claims.every(([count]) => count === pages) && !evidence.indirectKids;
  if (agree) return { pages, basis: 'read', why: `${pages} pages: /Type /Page, /Count and /Kids agree` };
  return { pages, basis: 'bounded', why: `${pages} pages: ${what}` };
}

export async function countPdfPages(bytes: Uint8Array, options: CountOptions = {}): Promise<PdfPageCount> {
  const meter = options.meter ?? { steps: 0 };
  const evidence = emptyEvidence();
  const spans = scanPdfBytes(bytes, evidence, meter, true);
  const early = unbounded(evidence);
  if (early !== undefined) return limit(early);
  if (spans.length > maxStreams) return limit(`more than ${maxStreams} object streams`);
  const budget: InflateBudget = { left: maxInflatedBytes };
  for (const span of spans) {
    if (span.end === -1) return limit('an object stream without endstream');
    if (span.decoding === 'undecodable') return limit('an object stream whose filter Valve cannot decode');
    // An unfiltered object stream's bytes were read with the file's.
    if (span.decoding === 'none') continue;
    const inflated = await inflateWithin(bytes.subarray(span.start, span.end), budget);
    if (!inflated.ok) {
      return limit(
        inflated.reason === 'over budget'
          ? `object streams inflate past ${maxInflatedBytes} bytes`
          : 'an object stream that does not inflate',
      );
    }
    scanPdfBytes(inflated.bytes, evidence, meter, false);
    const late = unbounded(evidence);
    if (late !== undefined) return limit(late);
  }
  return conclude(evidence);
}
