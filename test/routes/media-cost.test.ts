import { afterEach, describe, expect, it, vi } from 'vitest';
import { estimateTokens } from '../../src/model/estimate-tokens';
import { imageTokens } from '../../src/model/media-tokens';
import type { Catalog } from '../../src/policy/catalog';
import { createKey } from '../helpers/api';
import { simModel } from '../helpers/catalog-fixtures';
import { base64Of, pngOf } from '../helpers/media-samples';
import { callWithCatalog } from '../helpers/with-catalog';

// maxCostUsd with an image, against an OpenAI-compatible upstream that bills honestly for what it was
// sent, the image included: every attempt — the JSON repair too, which resends the image — is planned
// with the image's tokens, so the repair is refused when it no longer fits.

const catalog: Catalog = {
  providers: [
    { id: 'billing', kind: 'openai', apiKeyEnv: 'PROVIDER_BILLING_KEY', baseUrl: 'https://billing.test/v1' },
  ],
  models: [
    simModel('vision', {
      provider: 'billing',
      simulate: undefined,
      priceUsdPerMTok: { input: 10, output: 10 },
      inputModalities: ['text', 'image'],
    }),
  ],
};
const schema = { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'] };
const photoTokens = imageTokens(1600, 1200);

interface WirePart {
  type: string;
  text?: string;
}
interface WireBody {
  messages: { content: string | WirePart[] }[];
}

/** An honest bill: the text, and each image at the most any provider charges for its size. */
function promptTokensOf(body: WireBody): number {
  let tokens = estimateTokens(JSON.stringify(schema));
  for (const message of body.messages) {
    const parts =
      typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
    for (const part of parts)
      tokens += part.type === 'image_url' ? photoTokens : estimateTokens(part.text ?? '');
    tokens += 8;
  }
  return tokens;
}

afterEach(() => vi.restoreAllMocks());

describe('the cost cap with media', () => {
  it('plans the JSON repair, which resends the image, with the image’s tokens, and refuses it when it no longer fits', async () => {
    const sent: WireBody[] = [];
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (_input, init) => {
      const body = JSON.parse(String(init?.body)) as WireBody;
      sent.push(body);
      const content = sent.length === 1 ? '{"notes": "not the schema"}' : '{"answer": "a photo"}';
      return Response.json({
        id: 'chatcmpl-1',
        object: 'chat.completion',
        model: 'vision',
        choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
        usage: {
          prompt_tokens: promptTokensOf(body),
          completion_tokens: estimateTokens(content),
          total_tokens: 0,
        },
      });
    });
    const { key } = await createKey('media-repair-cost', ['reason']);
    // The first call bills about $0.039 (3,779 image tokens at $10 per million, and the text); a repair
    // would bill as much again, over what a $0.06 cap leaves.
    const maxCostUsd = 0.06;
    const photo = {
      type: 'image',
      mimeType: 'image/png',
      source: { kind: 'base64', data: base64Of(pngOf(1600, 1200)) },
    };
    const { res, settled } = await callWithCatalog(
      catalog,
      '/v1/reason',
      {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${key}` },
        body: JSON.stringify({
          task: 'describe',
          instructions: 'Answer with the JSON the schema asks for.',
          context: [{ trust: 'untrusted', privacy: 'internal', media: [photo] }],
          output: { format: 'json', schema },
          modelPolicy: { maxCostUsd, maxOutputTokens: 100, allowFallback: false },
        }),
      },
      { PROVIDER_BILLING_KEY: 'sk-billing' },
    );
    const answer = (await res.json()) as {
      error?: {
        code: string;
        details: { decision: { attempts: { outcome: string; reason?: string; costUsd: number }[] } };
      };
    };
    await settled();
    const attempts = answer.error?.details.decision.attempts ?? [];
    expect(attempts.reduce((sum, a) => sum + a.costUsd, 0)).toBeLessThanOrEqual(maxCostUsd);
    expect(sent).toHaveLength(1);
    expect(res.status).toBe(422);
    expect(attempts.map((a) => [a.outcome, a.reason])).toEqual([
      ['ok', undefined],
      ['skipped', 'cost'],
    ]);
  });
});
