import { PdfKidsArray } from './pdf-kids-array';
import { PdfStreamDict, type StreamDecoding } from './pdf-stream-dict';
import { PdfLexer, type PdfMeter } from './pdf-tokens';

// What the bytes of a PDF (or of one decoded object stream) say about its pages, in one pass over
// the lexer's tokens: dictionaries typed /Page, the largest /Count, the entries of every /Kids array,
// and the streams a reader could load objects from. A key and its value may have a comment between
// them (§7.2.4); so a key still waits for its value on the line after a `%`.

export interface PdfPageEvidence {
  /** `/Type /Page` pairs (names decoded). */
  pageTypes: number;
  /** The largest number right after a `/Count`. */
  largestCount: number;
  /** Entries (references, dictionaries) of /Kids arrays written in place. */
  kidsEntries: number;
  /** Every `R` and `<<` seen: the bound on /Kids entries when a /Kids array is given by reference. */
  anyEntries: number;
  /** A /Kids whose value is not an array written in place (a reference to an array elsewhere). */
  indirectKids: boolean;
  /** An /Encrypt key: strings and streams are encrypted, so nothing in them can be read. */
  encrypted: boolean;
  /** More /Kids arrays open at once than Valve follows (a crafted file: no honest one nests them). */
  tooManyKids: boolean;
}

export interface ObjectStreamSpan {
  start: number;
  /** Exclusive: where `endstream` begins, the end-of-line before it left out; -1 if none follows. */
  end: number;
  decoding: StreamDecoding;
}

export function emptyEvidence(): PdfPageEvidence {
  return {
    pageTypes: 0,
    largestCount: 0,
    kidsEntries: 0,
    anyEntries: 0,
    indirectKids: false,
    encrypted: false,
    tooManyKids: false,
  };
}

/** The most /Kids arrays followed at once: each token costs one step per open array. */
export const maxOpenKids = 16;

const typeKey = 1;
const countKey = 2;
const kidsKey = 4;
const filterKey = 8;

const keys = new Map([
  ['Type', typeKey],
  ['Count', countKey],
  ['Kids', kidsKey],
  ['Filter', filterKey],
]);

/** Finds each `endstream` once, however many streams ask: the search only moves forward. */
function createEndstreamFinder(bytes: Uint8Array, meter: PdfMeter): (from: number) => number {
  const word = [0x65, 0x6e, 0x64, 0x73, 0x74, 0x72, 0x65, 0x61, 0x6d];
  let found = -2;
  let searched = 0;
  return (from) => {
    if (found >= from || (found === -1 && searched <= from)) return found;
    let at = Math.max(from, searched);
    found = -1;
    for (; at + word.length <= bytes.length; at++) {
      meter.steps++;
      let k = 0;
      while (k < word.length && bytes[at + k] === word[k]) k++;
      meter.steps += k;
      if (k === word.length) {
        found = at;
        break;
      }
    }
    searched = found === -1 ? bytes.length : found + 1;
    return found;
  };
}

/** Where a stream's data begins: after `stream` and its end-of-line (CR LF, LF, or a lone CR). */
function dataStart(bytes: Uint8Array, at: number): number {
  if (bytes[at] === 13) at++;
  if (bytes[at] === 10) at++;
  return at;
}

/** Where a stream's data ends, given where `endstream` starts: the end-of-line before it is not data. */
function dataEnd(bytes: Uint8Array, endstream: number): number {
  let end = endstream;
  if (bytes[end - 1] === 10) end--;
  if (bytes[end - 1] === 13) end--;
  return end;
}

/**
 * Adds what `bytes` say to `evidence`; returns the object streams found (when `findStreams`: an
 * object stream's own decoded bytes hold no streams).
 */
export function scanPdfBytes(
  bytes: Uint8Array,
  evidence: PdfPageEvidence,
  meter: PdfMeter,
  findStreams: boolean,
): ObjectStreamSpan[] {
  const lexer = new PdfLexer(bytes, meter);
  const findEndstream = createEndstreamFinder(bytes, meter);
  const dict = new PdfStreamDict();
  const spans: ObjectStreamSpan[] = [];
  let kids: PdfKidsArray[] = [];
  let pending = 0;
  let afterComment = 0;
  let filterArray = false;

  while (lexer.next()) {
    meter.steps += kids.length;
    for (const array of kids) evidence.kidsEntries += array.step(lexer);
    if (kids.some((array) => array.done)) kids = kids.filter((array) => !array.done);

    const { kind, text } = lexer;
    if (lexer.afterEol) {
      pending |= afterComment;
      afterComment = 0;
    }
    if (kind === 'comment') {
      afterComment |= pending;
      continue;
    }
    if (pending & typeKey && kind === 'name') {
      if (text === 'Page') evidence.pageTypes++;
      else if (text === 'ObjStm') dict.sawObjectStreamType();
    }
    if (pending & countKey && kind === 'number') {
      evidence.largestCount = Math.max(evidence.largestCount, lexer.value);
    }
    if (pending & kidsKey) {
      if (kind !== 'arrayOpen') evidence.indirectKids = true;
      else if (kids.length < maxOpenKids) kids.push(new PdfKidsArray());
      else evidence.tooManyKids = true;
    }
    if (pending & filterKey) {
      if (kind === 'name') dict.sawFilter(text);
      else if (kind === 'arrayOpen') filterArray = true;
      else dict.sawUnknownFilter();
    } else if (filterArray) {
      if (kind === 'name') dict.sawFilter(text);
      else if (kind === 'arrayClose') filterArray = false;
      else dict.sawUnknownFilter();
    }
    pending = 0;

    if (kind === 'name') {
      pending = keys.get(text) ?? 0;
      if (text === 'N' || text === 'First') dict.sawKey(text);
      else if (text === 'DecodeParms' || text === 'DP') dict.sawKey('DecodeParms');
      else if (text === 'Encrypt') evidence.encrypted = true;
    } else if (kind === 'dictOpen') {
      evidence.anyEntries++;
    } else if (kind === 'keyword') {
      if (text === 'R') evidence.anyEntries++;
      else if (text === 'obj' || text === 'endobj') dict.reset(false);
      else if (text === 'endstream') dict.reset(true);
      else if (text === 'stream') {
        if (findStreams && dict.holdsObjects) {
          const start = dataStart(bytes, lexer.end);
          const endstream = findEndstream(start);
          spans.push({
            start,
            end: endstream === -1 ? -1 : dataEnd(bytes, endstream),
            decoding: dict.decoding,
          });
        }
        dict.reset(true);
      }
    }
  }
  return spans;
}
