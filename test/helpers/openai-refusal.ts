import { vi } from 'vitest';
import type { Catalog } from '../../src/policy/catalog';
import refusalJson from '../fixtures/providers/openai/refusal.json';
import refusalSse from '../fixtures/providers/openai/refusal.sse.json';
import { sseFrames } from '../providers/fake-fetch';
import { simModel } from './catalog-fixtures';

// A fake OpenAI upstream that refuses, with OpenAI's documented refusal (fixtures/providers/openai/refusal*).

export const openaiRefusal = "I'm sorry, I cannot assist with that request.";

/** Two OpenAI models, so that a retry, a repair or a fallback would each show as a second upstream call. */
export const refusingCatalog: Catalog = {
  providers: [{ id: 'openai', kind: 'openai', apiKeyEnv: 'OPENAI_API_KEY' }],
  models: [
    simModel('gpt-first', { provider: 'openai', simulate: undefined, quality: 90 }),
    simModel('gpt-second', { provider: 'openai', simulate: undefined, quality: 80 }),
  ],
};
export const refusingEnv = { OPENAI_API_KEY: 'sk-test' };

/** Answers every upstream call with the refusal, JSON or streamed as the call asks; the spy counts calls. */
export function replayOpenAIRefusal() {
  return vi.spyOn(globalThis, 'fetch').mockImplementation(async (_input, init) => {
    const body = JSON.parse(String(init?.body ?? '{}')) as { stream?: boolean };
    return body.stream === true
      ? new Response(sseFrames(refusalSse).join(''), { headers: { 'content-type': 'text/event-stream' } })
      : Response.json(refusalJson);
  });
}
