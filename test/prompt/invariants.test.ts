import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ModelAdapter } from '../../src/model/model-adapter';
import { promptInputs } from '../../src/prompt/draw-nonce';
import { renderPrompt } from '../../src/prompt/render-prompt';
import { adapters } from '../../src/providers/registry';
import { repairRequest } from '../../src/reason/check-output';
import { renderCase } from '../helpers/prompt-arbitraries';
import { checkRendering, checkRepair, type RenderCase, withSentinel } from '../helpers/prompt-invariants';

// trust.md invariants 1–4, 6–11, 14, 15 (the repair request) and 16 (media) (the repair request) as properties over every adapter in the registry's wire body.
// Invariants 5, 12 and 13 need no wire body and have their own files.

const registered = Object.values(adapters).filter((a): a is ModelAdapter => a !== undefined);
const numRuns = 1000;

// Cases fast-check once found, run first on every invariant. A lone low surrogate after '0' (an
// emoji base) once made the removal count read the pair '0\uDC00' as one emoji and keep the VS16.
const foundCases: RenderCase[] = [
  {
    request: {
      task: '',
      instructions: '',
      context: [{ trust: 'trusted', privacy: 'public', content: '0\uDC00\uFE0F\uFE0F' }],
    },
    sentinel: 'SNTAAAAAAAAAA',
    options: { nonce: '0'.repeat(32), canary: '0'.repeat(16), mode: 'tags', maxItemChars: undefined },
  },
];

function failuresOf(c: RenderCase, invariant: number) {
  fc.pre(!promptInputs(c.request).includes(c.options.nonce));
  const sentinelled = { ...c, request: withSentinel(c.request, c.sentinel) };
  return checkRendering(renderPrompt, sentinelled, registered).filter(
    (f) => f.invariant === invariant || f.invariant === 0,
  );
}

const invariants: Array<[number, string]> = [
  [1, 'keeps a sentinel of every untrusted item out of system content and assistant turns'],
  [2, 'puts every item’s encoded content inside exactly one region whose id matches the item'],
  [3, 'parses to exactly k regions for k items, each decoding to its normalized item byte for byte'],
  [4, 'leaves no raw < or > inside a region body, and json bodies are JSON string literals'],
  [6, 'leaves no whitespace inside datamarked regions, and un-marking restores the input'],
  [7, 'makes base64 regions decode to the UTF-8 bytes of the normalized item'],
  [8, 'lets no tag, bidi or zero-width character survive inside regions and reports how many went'],
  [9, 'keeps conversation turns in order and role'],
  [10, 'renders the same request and nonce to byte-identical wire bodies'],
  [11, 'renders an item with missing trust as untrusted'],
  [14, 'truncates without splitting an entity or dropping a close marker, and still round-trips'],
  [16, 'puts every media part inside its item’s region in a user turn, never in a system part'],
];

describe('prompt invariants (trust.md), on every registered adapter', () => {
  it('has at least one adapter, and every adapter exposes its wire body', () => {
    expect(registered.length).toBeGreaterThan(0);
    for (const adapter of registered) expect(typeof adapter.toWireBody, adapter.kind).toBe('function');
  });

  it('15. keeps every byte of model output and untrusted input out of system parts, the JSON repair request included', () => {
    fc.assert(
      fc.property(renderCase, (c) => {
        fc.pre(!promptInputs(c.request).includes(c.options.nonce));
        const sentinelled = { ...c, request: withSentinel(c.request, c.sentinel) };
        const failures = checkRepair(renderPrompt, sentinelled, registered, (prompt, answer, findings) =>
          repairRequest(
            { messages: prompt.messages },
            prompt,
            {
              message: { role: 'assistant', content: [{ type: 'text', text: answer }] },
              usage: { input_tokens: 0, output_tokens: 0 },
              finish_reason: 'stop',
            },
            findings,
          ),
        );
        expect(failures).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });

  for (const [invariant, sentence] of invariants) {
    it(`${invariant}. ${sentence}`, () => {
      fc.assert(
        fc.property(renderCase, (c) => {
          expect(failuresOf(c, invariant)).toEqual([]);
        }),
        { numRuns, examples: foundCases.map((c) => [c] as [RenderCase]) },
      );
    });
  }
});
