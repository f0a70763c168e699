import type { PdfLexer } from './pdf-tokens';

// One /Kids array read as a reader reads it from its `[`: strings, hex strings and comments skipped,
// nested arrays followed to the matching `]`. Every entry that could lead to a page is counted: an
// indirect reference (`n g R`) or a dictionary written in place. Entries inside nested arrays or
// dictionaries are counted too, which can only raise the bound.

export class PdfKidsArray {
  /** Open `[` not yet closed; the array ends when this returns to 0. */
  private depth = 1;
  private stringDepth = 0;
  private hex = false;
  private comment = false;

  get done(): boolean {
    return this.depth === 0;
  }

  /** Follows one token; returns how many page entries it adds (0 or 1). */
  step(token: PdfLexer): number {
    if (this.comment) {
      if (!token.afterEol) return 0;
      this.comment = false;
    }
    if (this.stringDepth > 0) {
      if (token.kind === 'stringOpen' && !token.escaped) this.stringDepth++;
      else if (token.kind === 'stringClose' && !token.escaped) this.stringDepth--;
      return 0;
    }
    if (this.hex) {
      if (token.kind === 'hexClose' || token.kind === 'dictClose') this.hex = false;
      return 0;
    }
    switch (token.kind) {
      case 'comment':
        this.comment = true;
        return 0;
      case 'stringOpen':
        this.stringDepth = 1;
        return 0;
      case 'hexOpen':
        this.hex = true;
        return 0;
      case 'arrayOpen':
        this.depth++;
        return 0;
      case 'arrayClose':
        this.depth--;
        return 0;
      case 'dictOpen':
        return 1;
      case 'keyword':
        return token.text === 'R' ? 1 : 0;
      default:
        return 0;
    }
  }
}
