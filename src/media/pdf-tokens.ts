// A PDF lexer over raw bytes (ISO 32000-1 §7.2–7.3), in one pass and in steps linear in the input.
//
// It is deliberately context-free: it never hides bytes inside a string or a comment. `(`, `)` and
// `%` come out as tokens like any delimiter, and what follows them is lexed too. A reader may start
// parsing at any offset its cross-reference table names, even inside what looks like a string or a
// comment from the start of the file, so a lexer that skipped them could be made blind. Whoever needs
// a string or a comment skipped (a /Kids array, read as a reader reads it) follows the tokens'
// `afterEol` and `escaped` flags. Names come out with `#xx` decoded (§7.3.5).

export type PdfTokenKind =
  | 'name'
  | 'number'
  | 'keyword'
  | 'dictOpen'
  | 'dictClose'
  | 'arrayOpen'
  | 'arrayClose'
  | 'stringOpen'
  | 'stringClose'
  | 'hexOpen'
  | 'hexClose'
  | 'comment'
  | 'brace';

/** Work done, in steps: one a byte read, one a token. Shared by every lexer of one count. */
export interface PdfMeter {
  steps: number;
}

const regular = 0;
const whitespace = 1;
const delimiter = 2;

const classes = new Uint8Array(256);
for (const c of [0, 9, 10, 12, 13, 32]) classes[c] = whitespace;
for (const c of '()<>[]{}/%') classes[c.charCodeAt(0)] = delimiter;

const backslash = 0x5c;
const hash = 0x23;

function hexValue(c: number | undefined): number {
  if (c === undefined) return -1;
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x41 && c <= 0x46) return c - 0x37;
  if (c >= 0x61 && c <= 0x66) return c - 0x57;
  return -1;
}

/** Names longer than this are kept as '' (no key Valve looks for is longer). */
const maxKept = 32;
/**
 * Keywords are kept only when they are letters and no longer than this (`endstream`): every keyword
 * Valve looks for is one, and the runs of binary stream data it lexes then make no string.
 */
const maxKeptKeyword = 9;

/** A few bytes as a string, one character a byte: a loop, as spreading a view costs an iterator per call. */
function latin1(bytes: Uint8Array, start: number, length: number): string {
  let text = '';
  for (let i = start; i < start + length; i++) text += String.fromCharCode(bytes[i] as number);
  return text;
}

function isLetter(c: number): boolean {
  return (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
}
/** Numbers are read up to this; a larger one is this. */
const maxNumber = 1e12;

export class PdfLexer {
  kind: PdfTokenKind = 'keyword';
  /** A name's decoded text ('' when longer than 32 bytes), a keyword's ('' unless it is 1–9 letters). */
  text = '';
  /** A number's value, rounded up to an integer (a reader rejects fractions; this never undercounts). */
  value = 0;
  /** Whether an end-of-line came between the previous token and this one (a comment ended). */
  afterEol = false;
  /** For `(` and `)`: whether an odd run of backslashes right before it escapes it inside a string. */
  escaped = false;
  /** Where the token ends, exclusive. */
  end = 0;

  private pos = 0;
  private runEnd = -1;
  private runBackslashes = 0;
  private readonly kept = new Uint8Array(maxKept);

  constructor(
    private readonly bytes: Uint8Array,
    private readonly meter: PdfMeter,
  ) {}

  /** Moves to the next token; false at the end of the bytes. */
  next(): boolean {
    const { bytes } = this;
    let eol = false;
    let pos = this.pos;
    while (pos < bytes.length && classes[bytes[pos]!] === whitespace) {
      const c = bytes[pos]!;
      if (c === 10 || c === 13) eol = true;
      pos++;
    }
    this.meter.steps += pos - this.pos + 1;
    this.pos = pos;
    if (pos >= bytes.length) return false;
    this.afterEol = eol;
    this.escaped = false;
    const c = bytes[pos]!;
    if (classes[c] === regular) {
      this.readRun();
      return true;
    }
    if (c === 0x2f) {
      this.readName();
      return true;
    }
    this.escaped = this.runEnd === pos && this.runBackslashes % 2 === 1;
    this.runEnd = -1;
    const twice = bytes[pos + 1] === c;
    if (c === 0x3c) this.delimit(twice ? 'dictOpen' : 'hexOpen', twice ? 2 : 1);
    else if (c === 0x3e) this.delimit(twice ? 'dictClose' : 'hexClose', twice ? 2 : 1);
    else if (c === 0x5b) this.delimit('arrayOpen', 1);
    else if (c === 0x5d) this.delimit('arrayClose', 1);
    else if (c === 0x28) this.delimit('stringOpen', 1);
    else if (c === 0x29) this.delimit('stringClose', 1);
    else if (c === 0x25) this.delimit('comment', 1);
    else this.delimit('brace', 1);
    return true;
  }

  private delimit(kind: PdfTokenKind, length: number): void {
    this.kind = kind;
    this.pos += length;
    this.end = this.pos;
    this.meter.steps += length;
  }

  /** A run of regular bytes: a number if it is digits with a sign and a point, else a keyword. */
  private readRun(): void {
    const { bytes } = this;
    const start = this.pos;
    let pos = start;
    let numeric = true;
    let integer = 0;
    let fraction = false;
    let point = false;
    let digits = 0;
    let backslashes = 0;
    let letters = true;
    while (pos < bytes.length && classes[bytes[pos]!] === regular) {
      const c = bytes[pos]!;
      backslashes = c === backslash ? backslashes + 1 : 0;
      letters &&= isLetter(c);
      if (c >= 0x30 && c <= 0x39) {
        digits++;
        if (point) fraction ||= c !== 0x30;
        else integer = Math.min(maxNumber, integer * 10 + (c - 0x30));
      } else if (c === 0x2e && !point) point = true;
      else if (!((c === 0x2b || c === 0x2d) && pos === start)) numeric = false;
      pos++;
    }
    this.meter.steps += pos - start;
    this.pos = pos;
    this.end = pos;
    this.runEnd = pos;
    this.runBackslashes = backslashes;
    const negative = bytes[start] === 0x2d;
    if (numeric && digits > 0) {
      this.kind = 'number';
      this.value = negative ? -integer : integer + (fraction ? 1 : 0);
      this.text = '';
      return;
    }
    this.kind = 'keyword';
    const keep = letters && pos - start <= maxKeptKeyword;
    this.text = keep ? latin1(bytes, start, pos - start) : '';
  }

  /** A name: `/` and regular bytes, each `#xx` one byte (a `#` not followed by two hex digits is itself). */
  private readName(): void {
    const { bytes, kept } = this;
    let pos = this.pos + 1;
    let length = 0;
    let backslashes = 0;
    while (pos < bytes.length && classes[bytes[pos]!] === regular) {
      let c = bytes[pos]!;
      backslashes = c === backslash ? backslashes + 1 : 0;
      const high = c === hash ? hexValue(bytes[pos + 1]) : -1;
      const low = high >= 0 ? hexValue(bytes[pos + 2]) : -1;
      if (low >= 0) {
        c = high * 16 + low;
        // The escape's own bytes are regular, so the run goes on; its last byte is a hex digit.
        backslashes = 0;
        pos += 3;
      } else pos++;
      if (length < kept.length) kept[length] = c;
      length++;
    }
    this.meter.steps += pos - this.pos;
    this.pos = pos;
    this.end = pos;
    this.runEnd = pos;
    this.runBackslashes = backslashes;
    this.kind = 'name';
    this.text = length <= maxKept ? latin1(kept, 0, length) : '';
  }

  /** The position right after the current token. */
  get offset(): number {
    return this.pos;
  }
}
