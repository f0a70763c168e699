import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ProviderKind } from '../../src/model/provider-kind';
import type { Catalog, CatalogProvider } from '../../src/policy/catalog';
import { mediaPlaceholder } from '../../src/prompt/media-blocks';
import { parseRegions } from '../../src/prompt/parse-regions';
import { createKey } from '../helpers/api';
import { simModel } from '../helpers/catalog-fixtures';
import { base64Of, pdfOf, pngOf } from '../helpers/media-samples';
import { wireStrings } from '../helpers/prompt-invariants';
import { callWithCatalog } from '../helpers/with-catalog';

// An image and a PDF of untrusted context, through the route to each provider's fake upstream: the
// wire body the provider receives holds them inside the item's region, in a user turn, with the
// region's text before them and its closer after, and nothing of them in a system part.

const sentinel = 'ZQX-media-untrusted-51b7';
const png = base64Of(pngOf(640, 480));
const pdf = base64Of(pdfOf(1));

const answers: Partial<Record<ProviderKind, unknown>> = {
  openai: {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    model: 'm',
    choices: [{ index: 0, message: { role: 'assistant', content: 'An invoice.' }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 900, completion_tokens: 4, total_tokens: 904 },
  },
  anthropic: {
    id: 'msg_1',
    type: 'message',
    role: 'assistant',
    model: 'm',
    content: [{ type: 'text', text: 'An invoice.' }],
    stop_reason: 'end_turn',
    usage: { input_tokens: 900, output_tokens: 4 },
  },
  gemini: {
    candidates: [{ content: { role: 'model', parts: [{ text: 'An invoice.' }] }, finishReason: 'STOP' }],
    usageMetadata: { promptTokenCount: 900, candidatesTokenCount: 4, totalTokenCount: 904 },
  },
};

afterEach(() => vi.restoreAllMocks());

describe('media of untrusted context on every adapter’s wire body, through the route', () => {
  for (const kind of ['openai', 'anthropic', 'gemini', 'workers-ai'] as const) {
    it(`${kind}: inside the item's region in a user turn, never in a system part`, async () => {
      const readsPdf = kind !== 'workers-ai';
      const wires: unknown[] = [];
      vi.spyOn(globalThis, 'fetch').mockImplementation(async (_input, init) => {
        wires.push(JSON.parse(String(init?.body)));
        return Response.json(answers[kind]);
      });
      const ai = {
        run: async (_model: string, inputs: unknown) => {
          wires.push(JSON.parse(JSON.stringify(inputs)));
          return { response: 'An invoice.', usage: { prompt_tokens: 900, completion_tokens: 4 } };
        },
      };
      const provider: CatalogProvider =
        kind === 'workers-ai'
          ? { id: 'wai', kind }
          : { id: kind, kind, apiKeyEnv: 'PROVIDER_TEST_KEY', baseUrl: `https://${kind}.test/v1` };
      const inputModalities: ('text' | 'image' | 'pdf')[] = readsPdf
        ? ['text', 'image', 'pdf']
        : ['text', 'image'];
      const catalog: Catalog = {
        providers: [provider],
        models: [simModel(`${kind}-vision`, { provider: provider.id, simulate: undefined, inputModalities })],
      };
      const media = [
        { type: 'image', mimeType: 'image/png', source: { kind: 'base64', data: png } },
        ...(readsPdf
          ? [{ type: 'file', mimeType: 'application/pdf', source: { kind: 'base64', data: pdf } }]
          : []),
      ];
      const { key } = await createKey(`media-wire-${kind}`, ['reason']);
      const { res, settled } = await callWithCatalog(
        catalog,
        '/v1/reason',
        {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${key}` },
          body: JSON.stringify({
            task: 'describe',
            instructions: 'Say what the attachments are.',
            context: [
              { label: 'attachments', trust: 'untrusted', privacy: 'internal', content: sentinel, media },
            ],
          }),
        },
        { PROVIDER_TEST_KEY: 'sk-test', AI: ai },
      );
      const answer = await res.json();
      await settled();
      expect(res.status, JSON.stringify(answer)).toBe(200);
      expect(wires).toHaveLength(1);
      const wire = JSON.stringify(wires[0]);
      expect(wire).toContain(png);
      if (readsPdf) expect(wire).toContain(pdf);
      const nonce = /<data-([0-9a-f]{32}) id=\\"c1\\"/.exec(wire)?.[1];
      expect(nonce).toBeDefined();
      const regions = wireStrings(wires[0]).flatMap(({ text, authority, system, part }) => {
        expect(part && system, `${kind}: a media part in a system part`).toBeFalsy();
        return parseRegions(text, nonce ?? '').regions.map((region) => ({ region, authority }));
      });
      expect(regions).toHaveLength(1);
      const [{ region, authority }] = regions as [(typeof regions)[number]];
      expect(authority).toBe(false);
      expect(region.attributes).toEqual({
        id: 'c1',
        label: 'attachments',
        media: readsPdf ? 'image/png application/pdf' : 'image/png',
      });
      expect(region.body).toBe(`${sentinel}\n${mediaPlaceholder.repeat(media.length)}`);
    });
  }
});
