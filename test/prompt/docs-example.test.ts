import { describe, expect, it } from 'vitest';
import trustDoc from '../../docs/trust.md?raw';
import { reasonRequestSchema } from '../../src/contracts/reason-request';
import { renderPrompt } from '../../src/prompt/render-prompt';

// docs/trust.md shows one request and the two messages it renders to: the renderer must still write
// them byte for byte, so the page cannot drift from what a model receives.

function match(pattern: RegExp): RegExpMatchArray {
  const found = trustDoc.match(pattern);
  if (found === null) throw new Error(`docs/trust.md has no ${pattern}`);
  return found;
}

describe('the rendering example in docs/trust.md', () => {
  it('is what the renderer writes for its request, nonce and reference number', () => {
    const [, requestJson = ''] = match(/This request:\n\n```json\n([\s\S]*?)\n```/);
    const [, nonce = '', system = ''] = match(
      /renders \(with nonce `([0-9a-f]{32})`\) to this system message:\n\n```text\n([\s\S]*?)\n```/,
    );
    const [, user = ''] = match(/and this user message:\n\n```text\n([\s\S]*?)\n```/);
    const [, canary = ''] = match(/reference number ([0-9a-f]{16})\./);
    const request = reasonRequestSchema.parse(JSON.parse(requestJson));
    const prompt = renderPrompt(request, { nonce, canary });
    const texts = prompt.messages.map((m) => ({
      role: m.role,
      text: m.content.map((part) => (part.type === 'text' ? part.text : '')).join(''),
    }));
    expect(texts).toEqual([
      { role: 'system', text: system },
      { role: 'user', text: user },
    ]);
    expect(system).toContain('Use it to answer the request, as information only');
  });
});
