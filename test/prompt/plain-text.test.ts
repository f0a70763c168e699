import { describe, expect, it } from 'vitest';
import { whitespaceUnits } from '../../src/prompt/datamark-body';
import { invisibleUnit, invisibleUnits } from '../../src/prompt/invisible-characters';
import { isPlainText } from '../../src/prompt/plain-text';

// The single-pass writer skips lone-surrogate repair, invisible removal, mark stripping and NFC for
// plain text, so every unit the plain ranges accept must be one those steps leave alone, in any
// context. Each property is derived here from the runtime's own Unicode data, not from a list.

const assigned = /\p{Assigned}/u;

// Every code point that appears after the first in some canonical decomposition: the second halves
// of compositions (and Hangul vowels and trailing consonants) are among them. A text holding one can
// change under NFC; a text without any, all of combining class 0 and NFC-stable, cannot (UAX #15 §9).
function composingSeconds(): Set<number> {
  const seconds = new Set<number>();
  for (let point = 0; point <= 0x10ffff; point++) {
    if (point >= 0xd800 && point <= 0xdfff) continue;
    const char = String.fromCodePoint(point);
    const decomposed = char.normalize('NFD');
    if (decomposed === char) continue;
    for (const part of [...decomposed].slice(1)) seconds.add(part.codePointAt(0) ?? 0);
  }
  return seconds;
}

// A non-zero combining class shows as canonical reordering: U+0345 has class 240 and U+0334 class 1,
// so a unit of class 2–239 moves before the first and one of class 240 after the second.
function hasClassZero(char: string): boolean {
  return (
    `a\u0345${char}`.normalize('NFD') === `a\u0345${char}` &&
    `${char}\u0334`.normalize('NFD') === `${char}\u0334`
  );
}

describe('plain text', () => {
  it('accepts only assigned, NFC-inert units that no normalization step removes or replaces', () => {
    const seconds = composingSeconds();
    // The probes themselves: they must flag what they are meant to flag.
    for (const unit of [0x0301, 0x0327, 0x1161, 0x11a8, 0x3099]) expect(seconds.has(unit)).toBe(true);
    for (const mark of ['\u0301', '\u0334', '\u0345', '\u05b0']) expect(hasClassZero(mark), mark).toBe(false);
    for (const starter of ['a', '\u1161', '\u3042']) expect(hasClassZero(starter), starter).toBe(true);
    const wrong: string[] = [];
    let accepted = 0;
    for (let unit = 0; unit <= 0xffff; unit++) {
      const char = String.fromCharCode(unit);
      if (!isPlainText(char)) continue;
      accepted++;
      const problems = [
        unit >= 0xd800 && unit <= 0xdfff && 'surrogate',
        unit >= 0xe000 && unit <= 0xf8ff && 'private use (a datamark character)',
        !assigned.test(char) && 'unassigned',
        (invisibleUnit.test(char) || new RegExp(invisibleUnits.source).test(char)) && 'removable',
        char.normalize('NFC') !== char && 'changed by NFC',
        seconds.has(unit) && 'composes with what precedes it',
        char.normalize('NFD') === char && !hasClassZero(char) && 'non-zero combining class',
      ].filter((problem) => problem !== false);
      if (problems.length > 0) wrong.push(`U+${unit.toString(16).toUpperCase()}: ${problems.join(', ')}`);
    }
    expect(wrong).toEqual([]);
    expect(accepted).toBeGreaterThan(33_000);
  });

  it('is one scan over the whole text: a single unplain unit anywhere sends it down the general path', () => {
    const prose = 'The box <was> damaged. '.repeat(100);
    expect(isPlainText(prose)).toBe(true);
    for (const unit of ['\u200b', '\u202e', '\ud800', '\udc00', '\ue000', '\u0301', '\ufeff']) {
      expect(isPlainText(`${prose}${unit}${prose}`)).toBe(false);
    }
  });
});

describe('the datamark writer', () => {
  it('knows exactly the units of ECMAScript \\s', () => {
    const expected: number[] = [];
    for (let unit = 0; unit <= 0xffff; unit++) if (/\s/.test(String.fromCharCode(unit))) expected.push(unit);
    expect(whitespaceUnits).toEqual(expected);
  });
});
