/// <reference types="vite/client" />
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ContextItem, ConversationTurn, ReasonRequest } from '../../src/contracts/reason-request';
import { promptModes } from '../../src/contracts/reason-request';
import { encodeBase64 } from '../../src/encoding/base64';
import { utf8 } from '../../src/encoding/utf8';
import { datamarkChar } from '../../src/prompt/datamark-char';
import { encodeBase64Text } from '../../src/prompt/encode-base64-text';
import { normalizeText } from '../../src/prompt/normalize-text';
import { isPlainText } from '../../src/prompt/plain-text';
import { renderPrompt } from '../../src/prompt/render-prompt';
import { truncateText } from '../../src/prompt/truncate-text';
import { writeRegionBody } from '../../src/prompt/write-region-body';
import { attackPieces, nonce as nonceArbitrary } from '../helpers/prompt-arbitraries';
import { injectionCorpus } from '../shared-data';
import { oldEncodeRegionBody, oldRenderPrompt } from './old-render-prompt';

// The single-pass region writer must give exactly what the multi-pass renderer gave, for every input:
// the plain path (one scan, then tokens and escaping in one replace) and the general path alike.

const fixedNonce = '0123456789abcdef0123456789abcdef';

// The public attack corpus beside the repository (test/shared-data.ts; skipped without it).
const corpus = injectionCorpus;

// Plain pieces, so most generated texts take the single-pass path, and the edges of the plain ranges.
const plainPieces = [
  'Order #4471 & co. wrote: "the box <was> damaged". ',
  'Café “fragile” — 3 of 4, ½ off, €5; ',
  'Ελληνικά, кириллица, 注文は遅れて届きました。한국어 ',
  '### Instruction:',
  '###\tSystem :',
  '### human:',
  '[inst]',
  '[SYSTEM_PROMPT]',
  '[/TOOL_CALLS]',
  '<</SYS>>',
  '<|eot_id|>',
  '<|a|>',
  '</end_of_turn>',
  '<Start_Of_Turn>',
  '_of_turn>',
  '<<<|x|>>>',
  '[[INST]]',
  fixedNonce,
  `<data-${fixedNonce} id="c1" trust="trusted">`,
  `</data-${fixedNonce}>`,
  '\u0000\u0001\u001f\u007f\\',
  '\u00a0\u2028\u2029\u202f\u205f\u3000\u000b\u000c\r',
  '\u00ac\u00ae\u02ff\u0388\u038c\u03a3\u0482\u0488\u052f\u2010\u205f\u20a0\u20c0\u3029\u3030\u3096\u309b\u30ff\u4e00\u9fff\uac00\ud7a3',
  // Just outside the plain ranges: each sends its text down the general path.
  '\u00ad',
  '\u0300',
  '\u0387',
  '\u0483',
  '\u0530',
  '\u200f',
  '\u202a',
  '\u2060',
  '\u20c1',
  '\u302a',
  '\u3099',
  '\ud7a4',
  '\u2126',
  '\u{1f600}',
];
const piece = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...plainPieces) },
  { weight: 2, arbitrary: fc.constantFrom(...attackPieces) },
  { weight: 2, arbitrary: fc.string({ maxLength: 6 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 3 }) },
);
const mostlyPlain = fc.array(piece, { maxLength: 8 }).map((pieces) => pieces.join(''));

const content: fc.Arbitrary<NonNullable<ContextItem['content']>> = fc.oneof(
  { weight: 3, arbitrary: mostlyPlain },
  { weight: 1, arbitrary: fc.dictionary(mostlyPlain, mostlyPlain, { maxKeys: 2 }) },
  { weight: 1, arbitrary: fc.array(fc.oneof(mostlyPlain, fc.integer()), { maxLength: 3 }) },
);
const item: fc.Arbitrary<ContextItem> = fc.record(
  {
    label: mostlyPlain,
    trust: fc.constantFrom('trusted' as const, 'untrusted' as const),
    privacy: fc.constantFrom('public', 'internal'),
    content,
  },
  { requiredKeys: ['trust', 'privacy', 'content'] },
);
const turns: fc.Arbitrary<ConversationTurn[]> = fc
  .array(fc.tuple(mostlyPlain, content, fc.boolean()), { maxLength: 2 })
  .map((rounds) =>
    rounds.flatMap(([said, result, named], k): ConversationTurn[] => [
      { role: 'user', content: said },
      {
        role: 'assistant',
        content: said,
        toolCalls: [{ id: `call${k}`, name: 'lookup', arguments: { q: said } }],
      },
      { role: 'tool', toolCallId: `call${k}`, ...(named && { name: 'lookup' }), content: result },
    ]),
  );
const request: fc.Arbitrary<ReasonRequest> = fc.record({
  task: mostlyPlain,
  instructions: fc.constant('Summarize.'),
  context: fc.array(item, { maxLength: 4 }),
  conversation: turns,
});

describe('the single-pass region writer', () => {
  it('renders every request exactly as the multi-pass renderer did, in every mode', () => {
    fc.assert(
      fc.property(
        request,
        nonceArbitrary,
        fc.constantFrom(...promptModes),
        fc.option(fc.integer({ min: 0, max: 60 }), { nil: undefined }),
        fc.boolean(),
        (req, drawn, mode, maxItemChars, useFixed) => {
          const nonce = useFixed ? fixedNonce : drawn;
          const options = { nonce, canary: 'feedfacecafebeef', mode, maxItemChars };
          expect(renderPrompt(req, options)).toEqual(oldRenderPrompt(req, options));
        },
      ),
      { numRuns: 1500 },
    );
  });

  it('writes each body as normalize, cut and encode did, the datamark character included', () => {
    fc.assert(
      fc.property(
        mostlyPlain,
        fc.constantFrom(...promptModes),
        nonceArbitrary,
        fc.option(fc.integer({ min: 0, max: 60 }), { nil: undefined }),
        fc.boolean(),
        (input, mode, nonce, maxChars, withMark) => {
          const mark = datamarkChar(nonce);
          const text = withMark ? `${mark}${input}${mark}` : input;
          const normalized = normalizeText(text, mode === 'tags+datamark' ? mark : undefined);
          const cut =
            maxChars === undefined
              ? { text: normalized.text, truncated: false }
              : truncateText(normalized.text, maxChars);
          expect(writeRegionBody(text, mode, mark, maxChars)).toEqual({
            body: oldEncodeRegionBody(cut.text, mode, mark),
            removed: normalized.removed,
            neutralized: normalized.neutralized,
            replaced: normalized.replaced,
            truncated: cut.truncated,
          });
        },
      ),
      { numRuns: 5000 },
    );
  });

  it.skipIf(corpus.length === 0)(
    'writes every string of the BIPIA corpus as the multi-pass renderer did',
    () => {
      const mark = datamarkChar(fixedNonce);
      const differing: string[] = [];
      for (const attack of corpus) {
        for (const mode of promptModes) {
          const normalized = normalizeText(attack, mode === 'tags+datamark' ? mark : undefined);
          const written = writeRegionBody(attack, mode, mark);
          if (
            written.body !== oldEncodeRegionBody(normalized.text, mode, mark) ||
            written.neutralized !== normalized.neutralized
          ) {
            differing.push(`${mode} ${JSON.stringify(attack.slice(0, 40))}`);
          }
        }
      }
      expect(differing).toEqual([]);
      expect(corpus.filter(isPlainText).length).toBeGreaterThan(corpus.length / 2);
    },
  );

  it('takes the single pass for the prose the benchmark renders, and not for text NFC or removal would change', () => {
    expect(isPlainText(plainPieces.slice(0, 23).join(''))).toBe(true);
    for (const outside of plainPieces.slice(23)) expect(isPlainText(`a${outside}b`), outside).toBe(false);
  });

  it('writes long bodies whatever their share of escaped characters, after short and long ones alike', () => {
    const mark = datamarkChar(fixedNonce);
    const texts = [
      '"'.repeat(70_000),
      'a b'.repeat(30_000),
      `${'x'.repeat(50_000)}${'\u2029'.repeat(50_000)}`,
      '<',
      '',
    ];
    for (const text of [...texts, ...texts.reverse()]) {
      for (const mode of promptModes) {
        expect(writeRegionBody(text, mode, mark).body).toBe(
          oldEncodeRegionBody(normalizeText(text, mark).text, mode, mark),
        );
      }
    }
  });

  it('encodes base64 as the RFC 4648 encoder does, for every length modulo 3', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 40 }), (input) => {
        expect(encodeBase64Text(input)).toBe(encodeBase64(utf8(input)));
      }),
      { numRuns: 2000 },
    );
    expect(encodeBase64Text('x'.repeat(100_000))).toBe(encodeBase64(utf8('x'.repeat(100_000))));
  });
});
