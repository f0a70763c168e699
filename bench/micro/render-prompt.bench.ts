import { bench, describe } from 'vitest';
import type { ContextItem, ReasonRequest } from '../../src/contracts/reason-request';
import { promptModes } from '../../src/contracts/reason-request';
import { renderPrompt } from '../../src/prompt/render-prompt';

// Rendering 100 untrusted context items of 10 KB each (target: under 5 ms median in `tags` mode),
// against a baseline that only serializes and concatenates the same items, so results read as ratios.
// The prose is plain (one scan proves normalization can only touch chat-template tokens), so each region
// is written in one pass; the second group puts an emoji with a joiner in every item, which sends every
// region through the general normalization steps.

const paragraph =
  'Order #4471 shipped on 2024-03-02 & arrived late; the customer wrote: "the box <was> damaged". ' +
  'Café staff noted “fragile” stickers — 3 of 4 missing. Reply within 48h.\n';

function item(index: number, extra = ''): ContextItem {
  let content = extra;
  while (content.length < 10_240) content += paragraph;
  return {
    label: `ticket ${index}`,
    trust: 'untrusted',
    privacy: 'internal',
    content: index % 10 === 9 ? { ticket: index, body: content.slice(0, 10_200) } : content.slice(0, 10_240),
  };
}

const request: ReasonRequest = {
  task: 'summarize',
  instructions: 'Summarize the tickets in three bullet points.',
  context: Array.from({ length: 100 }, (_, index) => item(index)),
};
const withEmoji: ReasonRequest = {
  ...request,
  context: Array.from({ length: 100 }, (_, index) =>
    item(index, 'Rated \u{1F469}\u200D\u{1F4BB} by support. '),
  ),
};
const nonce = '0123456789abcdef0123456789abcdef';

describe('render 100 context items of 10 KB', () => {
  bench('baseline: JSON.stringify and concatenate', () => {
    let prompt = request.instructions;
    for (const context of request.context ?? []) {
      prompt += `\n${typeof context.content === 'string' ? context.content : JSON.stringify(context.content)}`;
    }
    // Reading a character flattens the concatenation, so the baseline pays for building the string.
    if (prompt.charCodeAt(prompt.length >> 1) < 0) throw new Error('unreachable');
  });

  for (const mode of promptModes) {
    bench(`renderPrompt, ${mode}`, () => {
      renderPrompt(request, { nonce, canary: 'feedfacecafebeef', mode });
    });
  }
});

describe('render 100 context items of 10 KB, each with an emoji (the general path)', () => {
  for (const mode of promptModes) {
    bench(`renderPrompt, ${mode}, an emoji in every item (the general path)`, () => {
      renderPrompt(withEmoji, { nonce, canary: 'feedfacecafebeef', mode });
    });
  }
});
