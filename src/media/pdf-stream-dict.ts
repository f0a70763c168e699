// What Valve needs to know of a stream's dictionary: could a reader load objects from the stream (an
// object stream), and can Valve decode it. Read from the flat token stream, so two windows are kept:
// a narrow one since the last `obj`/`endobj`, and a broad one since the last stream ended. A string
// holding `obj` can shrink the narrow window, never the broad one; so the stream counts as an object
// stream, or as undecodable, if either window says so.

/** The filters of ISO 32000-1 §7.4 besides Flate: seeing one of these in the broad window is telling. */
const otherStreamFilters = new Set([
  'ASCIIHexDecode',
  'AHx',
  'ASCII85Decode',
  'A85',
  'LZWDecode',
  'LZW',
  'RunLengthDecode',
  'RL',
  'CCITTFaxDecode',
  'CCF',
  'JBIG2Decode',
  'DCTDecode',
  'DCT',
  'JPXDecode',
  'Crypt',
]);

const flate = new Set(['FlateDecode', 'Fl']);

interface Window {
  objectStream: boolean;
  n: boolean;
  first: boolean;
  flateFilters: number;
  /** A filter Valve cannot decode, a filter given by reference, or decode parameters (predictors). */
  undecodable: boolean;
}

const fresh = (): Window => ({
  objectStream: false,
  n: false,
  first: false,
  flateFilters: 0,
  undecodable: false,
});

export type StreamDecoding = 'none' | 'flate' | 'undecodable';

export class PdfStreamDict {
  private narrow = fresh();
  private broad = fresh();

  /** Forgets the narrow window (`obj`, `endobj`) or both (`stream`, `endstream`). */
  reset(both: boolean): void {
    this.narrow = fresh();
    if (both) this.broad = fresh();
  }

  sawObjectStreamType(): void {
    this.narrow.objectStream = true;
    this.broad.objectStream = true;
  }

  sawKey(key: 'N' | 'First' | 'DecodeParms'): void {
    if (key === 'N') this.narrow.n = true;
    else if (key === 'First') this.narrow.first = true;
    else this.narrow.undecodable = this.broad.undecodable = true;
  }

  /** A filter name, alone or in a filter array. */
  sawFilter(name: string): void {
    if (flate.has(name)) {
      this.narrow.flateFilters++;
      this.broad.flateFilters++;
      return;
    }
    this.narrow.undecodable = true;
    if (otherStreamFilters.has(name)) this.broad.undecodable = true;
  }

  /** A /Filter whose value is not a name or an array of names (a reference): unknowable. */
  sawUnknownFilter(): void {
    this.narrow.undecodable = this.broad.undecodable = true;
  }

  /** Whether a reader could take the stream now starting for an object stream (PDF 1.5, §7.5.7). */
  get holdsObjects(): boolean {
    const { narrow, broad } = this;
    return narrow.objectStream || broad.objectStream || (narrow.n && narrow.first);
  }

  get decoding(): StreamDecoding {
    const { narrow, broad } = this;
    if (narrow.undecodable || broad.undecodable) return 'undecodable';
    const flates = Math.max(narrow.flateFilters, broad.flateFilters);
    if (flates === 0) return 'none';
    return flates === 1 ? 'flate' : 'undecodable';
  }
}
