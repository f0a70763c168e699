import { afterEach, describe, expect, it, vi } from 'vitest';
import { reasonRequestSchema } from '../../src/contracts/reason-request';
import { type ReasonResponse, reasonResponseSchema } from '../../src/contracts/reason-response';
import type { VerifyReport } from '../../src/contracts/receipt-bodies';
import { buildDisclosure } from '../../src/receipts/disclose';
import { createKey, postJson } from '../helpers/api';
import {
  refusingCatalog as catalog,
  refusingEnv as env,
  openaiRefusal as refusal,
  replayOpenAIRefusal as replayOpenAI,
} from '../helpers/openai-refusal';
import { deltaText, readStream, refusalText, terminalOf } from '../helpers/read-stream';
import { reasonWithCatalog } from '../helpers/with-catalog';

// An OpenAI refusal through POST /v1/reason, replayed from OpenAI's documented refusal answer: a
// refusal is an answer of its own, not JSON to validate, so it costs exactly the one call.

const salt = 'cmVmdXNhbHJlZnVzYWxyZWZ1c2FscmVmdXNhbHJlZnVzYWw';
const request = reasonRequestSchema.parse({
  task: 'extract',
  instructions: 'Extract the order number from the message.',
  context: [{ trust: 'untrusted', privacy: 'public', content: 'Please help me with something harmful.' }],
  output: {
    format: 'json',
    schema: { type: 'object', properties: { order: { type: 'string' } }, required: ['order'] },
  },
  modelPolicy: { prefer: 'quality' },
  receiptSalt: salt,
});

afterEach(() => vi.restoreAllMocks());

describe('an OpenAI refusal through POST /v1/reason', () => {
  it('answers 200 with the refusal after exactly one upstream call, in JSON mode, with a receipt that verifies', async () => {
    const fetch = replayOpenAI();
    const { key } = await createKey('refusal-json');
    const call = await reasonWithCatalog(catalog, key, request, env);
    await call.settled();
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(call.res.status).toBe(200);
    const response = reasonResponseSchema.parse(await call.res.json()) as ReasonResponse;
    expect(response.output).toEqual({ format: 'refusal', refusal });
    expect(response.finishReason).toBe('content_filter');
    expect(response.toolCalls).toEqual([]);
    expect(response.model.model).toBe('gpt-first');
    // Billed as reported, one attempt, no repair and no fallback.
    expect(response.usage).toMatchObject({ inputTokens: 81, outputTokens: 11 });
    expect(response.decision.attempts.map((a) => [a.model, a.outcome])).toEqual([['gpt-first', 'ok']]);
    expect(response.warnings.map((w) => w.code)).not.toContain('model.refusal');

    const bundle = await buildDisclosure({ request, response, salt });
    expect(bundle.open['res.output']?.value).toEqual({ format: 'refusal', refusal });
    const report = (await (await postJson('/v1/receipts/verify', bundle)).json()) as VerifyReport;
    expect(report.ok).toBe(true);
    // The refusal's words are what the receipt commits to: other words do not verify.
    const altered = await buildDisclosure({
      request,
      response: { ...response, output: { format: 'refusal', refusal: 'Sure, here it is.' } },
      salt,
    });
    const forged = (await (await postJson('/v1/receipts/verify', altered)).json()) as VerifyReport;
    expect(forged.ok).toBe(false);
  });

  it('streams the refusal as response.refusal.delta events between response.created and response.completed', async () => {
    const fetch = replayOpenAI();
    const { key } = await createKey('refusal-sse');
    const call = await reasonWithCatalog(catalog, key, request, env, { Accept: 'text/event-stream' });
    const events = await readStream(call.res);
    await call.settled();
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(events.map((e) => e.type)).toEqual([
      'response.created',
      'response.refusal.delta',
      'response.refusal.delta',
      'response.refusal.delta',
      'response.completed',
    ]);
    expect(refusalText(events)).toBe(refusal);
    expect(deltaText(events)).toBe('');
    const response = terminalOf(events).response as ReasonResponse;
    expect(response.output).toEqual({ format: 'refusal', refusal });
    expect(response.finishReason).toBe('content_filter');
    const bundle = await buildDisclosure({ request, response, salt });
    const report = (await (await postJson('/v1/receipts/verify', bundle)).json()) as VerifyReport;
    expect(report.ok).toBe(true);
  });
});
