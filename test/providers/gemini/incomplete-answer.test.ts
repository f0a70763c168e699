import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/errors';
import { geminiAdapter } from '../../../src/providers/gemini/gemini-adapter';
import { callOptions, fakeFetch, jsonResponse, trustRequest } from '../fake-fetch';

// A 2xx JSON body that parses but is not a whole answer is never returned as a success.

async function generateWith(body: unknown): Promise<unknown> {
  const { fetch } = fakeFetch(() => jsonResponse(body));
  return geminiAdapter
    .generate(trustRequest, callOptions(fetch, { model: 'gemini-2.5-flash' }))
    .catch((e) => e);
}

describe('gemini adapter: an incomplete JSON answer', () => {
  it.each([
    { name: 'no candidates at all', body: { usageMetadata: { promptTokenCount: 3 } } },
    { name: 'an empty candidates list', body: { candidates: [] } },
    {
      name: 'a candidate without finishReason',
      body: { candidates: [{ content: { role: 'model', parts: [{ text: 'The printer is' }] } }] },
    },
  ])('$name is invalid_response', async ({ body }) => {
    const error = await generateWith(body);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).details).toMatchObject({ kind: 'invalid_response', dispatch: 'sent' });
  });
});
