import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/errors';
import { anthropicAdapter } from '../../../src/providers/anthropic/anthropic-adapter';
import textJson from '../../fixtures/providers/anthropic/text.json';
import { callOptions, fakeFetch, jsonResponse, trustRequest } from '../fake-fetch';

// A 2xx JSON body that parses but is not a whole answer is never returned as a success.

describe('anthropic adapter: an incomplete JSON answer', () => {
  it('a message without stop_reason is invalid_response', async () => {
    const { fetch } = fakeFetch(() => jsonResponse({ ...textJson, stop_reason: null }));
    const error = await anthropicAdapter
      .generate(trustRequest, callOptions(fetch, { model: 'claude-test' }))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).details).toMatchObject({ kind: 'invalid_response', dispatch: 'sent' });
  });
});
