import { env } from 'cloudflare:workers';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { estimateTokens } from '../../src/model/estimate-tokens';
import { audioTokens, imageTokens, pdfTokens } from '../../src/model/media-tokens';
import type { Catalog } from '../../src/policy/catalog';
import { adminToken, call, createKey } from '../helpers/api';
import { simModel } from '../helpers/catalog-fixtures';
import {
  escapedNamesPdf,
  type Hostile,
  largeFrameGif,
  mpegInWav,
  twoDataChunksWav,
  typelessTreePdf,
  zeroDataWav,
} from '../helpers/hostile-media';
import { base64Of } from '../helpers/media-samples';
import { callWithCatalog } from '../helpers/with-catalog';

// The cost cap against files crafted to look smaller than they are, through POST /v1/reason and the
// OpenAI door, before an OpenAI-compatible upstream that bills what a real decoder reads from them
// (each file's `truth`, priced by the same per-page, per-second and per-pixel rules Valve plans with).
// Each file's naive reading fits the cap and its truth does not: the request must be refused before
// the call, and `decision.media` must price the part at least at its truth, saying it was bounded.

const catalogAt = (inputUsdPerMTok: number): Catalog => ({
  providers: [
    { id: 'billing', kind: 'openai', apiKeyEnv: 'PROVIDER_BILLING_KEY', baseUrl: 'https://billing.test/v1' },
  ],
  models: [
    simModel('reader', {
      provider: 'billing',
      simulate: undefined,
      priceUsdPerMTok: { input: inputUsdPerMTok, output: 1 },
      contextTokens: 1_000_000,
      inputModalities: ['text', 'image', 'audio', 'pdf'],
      capabilities: { tools: true, json: 'native', reasoning: false, base64Data: true },
    }),
  ],
});
const catalog = catalogAt(100);
const providerKeys = { PROVIDER_BILLING_KEY: 'sk-billing' };

function truthTokens(file: Hostile): number {
  if (file.type === 'file') return pdfTokens(file.truth as number);
  if (file.type === 'audio') return audioTokens(file.truth as number);
  const [width, height] = file.truth as [number, number];
  return imageTokens(width, height);
}

/** Each trick, and a maxCostUsd its naive reading fits and its truth does not. */
const tricks: [Hostile, number][] = [
  [escapedNamesPdf(1000), 1],
  [typelessTreePdf(500, { decoy: true }), 1],
  [zeroDataWav(60), 0.05],
  [twoDataChunksWav(60), 0.05],
  [mpegInWav(60), 0.05],
  [largeFrameGif(4000), 0.1],
];

interface Sent {
  body: string;
}

/** An upstream that bills each media part it receives at what a decoder reads from it. */
function billingUpstream(files: Hostile[]): Sent[] {
  const sent: Sent[] = [];
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (_input, init) => {
    const body = String(init?.body);
    sent.push({ body });
    let text = body;
    let prompt = 0;
    for (const file of files) {
      const data = base64Of(file.bytes);
      if (body.includes(data)) prompt += truthTokens(file);
      text = text.replaceAll(data, '');
    }
    prompt += estimateTokens(text);
    return Response.json({
      id: 'chatcmpl-1',
      object: 'chat.completion',
      model: 'reader',
      choices: [{ index: 0, message: { role: 'assistant', content: 'Seen.' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: prompt, completion_tokens: 2, total_tokens: prompt + 2 },
    });
  });
  return sent;
}

interface Decision {
  attempts: { costUsd: number }[];
  media?: { path: string; tokens: number; basis: string; why: string }[];
}

/** The decision of an answer or of a refusal, whichever the response is. */
async function decisionOf(res: Response): Promise<{ status: number; decision: Decision; code?: string }> {
  const json = (await res.json()) as {
    decision?: Decision;
    valve?: { decision: Decision };
    error?: { code: string; details?: { decision?: Decision } };
  };
  const decision = json.decision ?? json.valve?.decision ?? json.error?.details?.decision;
  if (decision === undefined) throw new Error(`no decision in ${JSON.stringify(json).slice(0, 400)}`);
  return { status: res.status, decision, code: json.error?.code };
}

afterEach(() => vi.restoreAllMocks());

describe('a crafted file is priced at least at what a decoder reads', () => {
  for (const [file, maxCostUsd] of tricks) {
    it(`refuses ${file.name} at maxCostUsd ${maxCostUsd} before any call (POST /v1/reason)`, async () => {
      const sent = billingUpstream([file]);
      const { key } = await createKey('media-tricks', ['reason']);
      const part = {
        type: file.type,
        mimeType: file.mimeType,
        source: { kind: 'base64', data: base64Of(file.bytes) },
      };
      const { res, settled } = await callWithCatalog(
        catalog,
        '/v1/reason',
        {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${key}` },
          body: JSON.stringify({
            task: 'describe',
            instructions: 'Say what the attachment holds.',
            context: [{ trust: 'untrusted', privacy: 'internal', media: [part] }],
            modelPolicy: { maxCostUsd, maxOutputTokens: 50 },
          }),
        },
        providerKeys,
      );
      const { status, decision, code } = await decisionOf(res);
      await settled();
      expect(decision.attempts.reduce((sum, a) => sum + a.costUsd, 0)).toBeLessThanOrEqual(maxCostUsd);
      expect(sent).toHaveLength(0);
      expect([status, code]).toEqual([422, 'policy.no_eligible_model']);
      const [priced] = decision.media ?? [];
      expect(priced?.path).toBe('context[0].media[0]');
      expect(priced?.tokens).toBeGreaterThanOrEqual(truthTokens(file));
      expect(priced?.basis).not.toBe('read');
    });
  }

  it('refuses the #-escaped PDF through the OpenAI door’s file_data, and keeps a capped tenant within its cap', async () => {
    // 150 pages at $10 per million input tokens bill about $6.90; the decoy page alone $0.05.
    const file = escapedNamesPdf(150);
    const sent = billingUpstream([file]);
    const tenant = 'media-tricks-capped';
    const capUsd = 0.2;
    const put = await call(`/v1/admin/tenants/${tenant}/budget`, {
      method: 'PUT',
      headers: { Authorization: `Bearer ${adminToken}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ monthlyCapUsd: capUsd }),
    });
    expect(put.status).toBe(200);
    const { key } = await createKey(tenant, ['reason']);
    const { res, settled } = await callWithCatalog(
      catalogAt(10),
      '/openai/v1/chat/completions',
      {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${key}` },
        body: JSON.stringify({
          model: 'auto',
          max_tokens: 50,
          messages: [
            {
              role: 'user',
              content: [
                { type: 'text', text: 'Summarize the attachment.' },
                {
                  type: 'file',
                  file: {
                    file_data: `data:application/pdf;base64,${base64Of(file.bytes)}`,
                    filename: 'a.pdf',
                  },
                },
              ],
            },
          ],
        }),
      },
      providerKeys,
    );
    const json = (await res.json()) as { valve?: { code: string } };
    await settled();
    expect(sent).toHaveLength(0);
    // The door answers a spent cap as OpenAI does (429 insufficient_quota), Valve's code beside it.
    expect(res.status).toBe(429);
    expect(json.valve?.code).toBe('limit.budget_exhausted');
    const status = await env.TENANT_BUDGET.getByName(tenant).status();
    expect(status.reservedUsd).toBe(0);
    expect(status.spentUsd).toBeLessThanOrEqual(capUsd);
  });
});
