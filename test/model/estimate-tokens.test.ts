import { encode as encodeCl100k } from 'gpt-tokenizer/encoding/cl100k_base';
import { encode as encodeO200k } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { estimateTokens } from '../../src/model/estimate-tokens';
import { tokenCorpus } from './fixtures/token-corpus';

// The estimator against two real tokenizers (cl100k_base, o200k_base), counting the larger of the two.
// Measured on this corpus (2026-12): prose, code, JSON, CJK, emoji and identifiers between 1.15x and
// 2.7x; random ASCII strings (ids, hex, base64, digits, punctuation) and random emoji between 1.06x and
// 3.0x. It must never go below 1.

function realTokens(text: string): number {
  return Math.max(encodeCl100k(text).length, encodeO200k(text).length);
}

function ratio(text: string): number {
  return estimateTokens(text) / realTokens(text);
}

let seed = 7;
function random(): number {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff;
  return seed / 0x7fffffff;
}
function randomFrom(alphabet: string, length: number): string {
  return Array.from({ length }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
}
function randomCodePoints(from: number, span: number, length: number): string {
  return Array.from({ length }, () => String.fromCodePoint(from + Math.floor(random() * span))).join('');
}

const randomStrings: Record<string, string> = {
  lowercase: randomFrom('abcdefghijklmnopqrstuvwxyz', 400),
  mixedCase: randomFrom('abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ', 400),
  base64: randomFrom('abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+/', 400),
  hex: randomFrom('0123456789abcdef', 400),
  digits: randomFrom('0123456789', 400),
  punctuation: randomFrom('!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~', 400),
  emoji: randomCodePoints(0x1f300, 700, 100),
  cjkExtensionB: randomCodePoints(0x20000, 40000, 100),
};

describe('estimateTokens', () => {
  it.each(Object.entries(tokenCorpus))(
    'never under-estimates %s text, nor over-estimates it past 3x',
    (_, text) => {
      const r = ratio(text);
      expect(r).toBeGreaterThanOrEqual(1.1);
      expect(r).toBeLessThanOrEqual(3);
    },
  );

  it.each(Object.entries(randomStrings))('never under-estimates random %s', (_, text) => {
    expect(ratio(text)).toBeGreaterThanOrEqual(1);
  });

  it('keeps the measured range of the whole corpus within 1.1x to 3x', () => {
    const ratios = Object.values(tokenCorpus).map(ratio);
    expect(Math.min(...ratios)).toBeGreaterThanOrEqual(1.1);
    expect(Math.max(...ratios)).toBeLessThanOrEqual(3);
  });

  it('never under-estimates any prefix of the corpus, where runs are cut mid-word', () => {
    for (const text of Object.values(tokenCorpus)) {
      for (let end = 1; end < text.length; end += 17) {
        const prefix = text.slice(0, end);
        expect(estimateTokens(prefix)).toBeGreaterThanOrEqual(realTokens(prefix));
      }
    }
  });

  it('records its known limit: uniformly random rare CJK or Hangul letters are under-counted', () => {
    const rare = [randomCodePoints(0x4e00, 20000, 200), randomCodePoints(0xac00, 11000, 200)];
    for (const text of rare) {
      const r = ratio(text);
      expect(r).toBeLessThan(1);
      expect(r).toBeGreaterThan(0.75);
    }
  });

  it('counts nothing for empty text and grows with the text', () => {
    expect(estimateTokens('')).toBe(0);
    expect(estimateTokens('hello world, hello world')).toBeGreaterThan(estimateTokens('hello world'));
  });
});
