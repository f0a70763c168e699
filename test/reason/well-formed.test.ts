import { afterEach, describe, expect, it } from 'vitest';
import { reasonRequestSchema } from '../../src/contracts/reason-request';
import { type ReasonResponse, reasonResponseSchema } from '../../src/contracts/reason-response';
import type { VerifyReport } from '../../src/contracts/receipt-bodies';
import type { ModelAdapter } from '../../src/model/model-adapter';
import type { ModelResponse } from '../../src/model/model-response';
import { adapters } from '../../src/providers/registry';
import { wellFormedDeep } from '../../src/reason/well-formed';
import { buildDisclosure } from '../../src/receipts/disclose';
import { createKey, postJson, reason } from '../helpers/api';

describe('wellFormedDeep', () => {
  it('replaces lone surrogates in strings and keys, counts them, and leaves pairs alone', () => {
    const input = { 'k\uD800': ['a\uDC00b', 'ok 😀'], n: 1 };
    const { value, replaced } = wellFormedDeep(input);
    expect(replaced).toBe(2);
    expect(value).toEqual({ 'k\uFFFD': ['a\uFFFDb', 'ok 😀'], n: 1 });
  });

  it('returns a well-formed value as it is', () => {
    const input = { text: 'fine 😀', list: [1, 'two'] };
    expect(wellFormedDeep(input)).toEqual({ value: input, replaced: 0 });
  });
});

describe('a model that answers with a lone surrogate', () => {
  const original = adapters.sim;
  afterEach(() => {
    adapters.sim = original;
  });

  it('still gets a 200 whose output is repaired, warned about, and covered by a receipt that verifies', async () => {
    const answer: ModelResponse = {
      message: { role: 'assistant', content: [{ type: 'text', text: 'broken \uD83D here' }] },
      usage: { input_tokens: 5, output_tokens: 3 },
      finish_reason: 'stop',
    };
    const scripted: ModelAdapter = {
      kind: 'sim',
      generate: async () => answer,
      stream() {
        throw new Error('not scripted');
      },
      toWireBody: (request) => request,
    };
    adapters.sim = scripted;
    const salt = 'd2VsbGZvcm1lZHdlbGxmb3JtZWR3ZWxsZm9ybWVkd2VsbGZv';
    const request = reasonRequestSchema.parse({ task: 'echo', instructions: 'Echo.', receiptSalt: salt });
    const { key } = await createKey('surrogates');
    const res = await reason(key, request);
    expect(res.status).toBe(200);
    const response = reasonResponseSchema.parse(await res.json()) as ReasonResponse;
    expect(response.output).toEqual({ format: 'text', text: 'broken \uFFFD here' });
    expect(response.warnings.map((w) => w.code)).toContain('model.output_repaired');
    const report = (await (
      await postJson('/v1/receipts/verify', await buildDisclosure({ request, response, salt }))
    ).json()) as VerifyReport;
    expect(report.ok).toBe(true);
  });
});
