import { describe, expect, it } from 'vitest';
import { estimateTokens } from '../../../src/model/estimate-tokens';
import type { ModelRequest } from '../../../src/model/model-request';
import { simAdapter } from '../../../src/providers/sim/sim-adapter';
import { callOptions, drain, rejection, streamedText, trustRequest } from '../fake-fetch';
import {
  mediaRequest,
  misplacedMedia,
  pdfFile,
  pngBase64,
  pngImage,
  urlImage,
  wavAudio,
} from '../media-samples';

const noFetch = () => Promise.reject(new Error('the simulator makes no calls'));
const options = callOptions(noFetch, { model: 'fast' });

function textOf(response: Awaited<ReturnType<typeof simAdapter.generate>>): string {
  return response.message.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
}

function textTokensOf(request: ModelRequest): number {
  const texts = request.messages.map((message) =>
    message.content.map((block) => (block.type === 'text' ? block.text : '')).join(''),
  );
  return estimateTokens(texts.join('\n'));
}

describe('the simulator with media', () => {
  it('says how many media it read, counting text tokens as before', async () => {
    const request = mediaRequest();
    const response = await simAdapter.generate(request, options);
    expect(textOf(response)).toMatch(
      new RegExp(
        `^\\[simulated by sim/fast\\] A deterministic answer \\(digest [0-9a-f]{12}\\) to a prompt of ${textTokensOf(request)} estimated tokens with 1 image and 1 PDF\\. No model was called\\.$`,
      ),
    );
    expect(response.usage.input_tokens).toBe(textTokensOf(request));
    const audio: ModelRequest = {
      messages: [{ role: 'user', content: [wavAudio, { type: 'text', text: 'Hear.' }, pngImage, pngImage] }],
    };
    expect(textOf(await simAdapter.generate(audio, options))).toContain(
      'estimated tokens with 2 images and 1 audio clip. No',
    );
  });

  it('answers a request without media exactly as before', async () => {
    const response = await simAdapter.generate(trustRequest, options);
    expect(textOf(response)).toMatch(
      new RegExp(
        `^\\[simulated by sim/fast\\] A deterministic answer \\(digest [0-9a-f]{12}\\) to a prompt of ${textTokensOf(trustRequest)} estimated tokens\\. No model was called\\.$`,
      ),
    );
  });

  it('gives other media another digest, and streams what it answers', async () => {
    const first = textOf(await simAdapter.generate(mediaRequest(), options));
    const other = mediaRequest({
      ...pngImage,
      source: { kind: 'base64', data: `${pngBase64.slice(0, -4)}AAA=` },
    });
    expect(textOf(await simAdapter.generate(other, options))).not.toBe(first);
    expect(textOf(await simAdapter.generate(mediaRequest(pngImage, pdfFile), options))).toBe(first);
    const { parts, error } = await drain(simAdapter.stream(mediaRequest(), options));
    expect(error).toBeUndefined();
    expect(streamedText(parts)).toBe(first);
  });

  it('refuses what a provider would: media outside a user message, a URL it would have to fetch', async () => {
    for (const request of [misplacedMedia('system'), misplacedMedia('assistant'), mediaRequest(urlImage)]) {
      const error = await rejection(simAdapter.generate(request, options));
      expect(error).toMatchObject({ kind: 'invalid_request', provider: 'sim', dispatch: 'not_sent' });
      const streamed = await drain(simAdapter.stream(request, options));
      expect(streamed.error).toMatchObject({ kind: 'invalid_request' });
    }
  });
});
