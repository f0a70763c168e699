import { env } from 'cloudflare:workers';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { estimateTokens } from '../../src/model/estimate-tokens';
import type { Catalog } from '../../src/policy/catalog';
import { adminToken, call, createKey } from '../helpers/api';
import { simModel } from '../helpers/catalog-fixtures';
import { checkStreamOrder, parseSse } from '../helpers/check-stream-order';
import { callWithCatalog } from '../helpers/with-catalog';

// maxCostUsd and the tenant cap against an OpenAI-compatible upstream that bills honestly for what it
// was sent (the repair call carries the first answer), and against one that ignores max_tokens.

const catalog: Catalog = {
  providers: [
    { id: 'billing', kind: 'openai', apiKeyEnv: 'PROVIDER_BILLING_KEY', baseUrl: 'https://billing.test/v1' },
  ],
  models: [
    simModel('billed', {
      provider: 'billing',
      simulate: undefined,
      priceUsdPerMTok: { input: 10, output: 10 },
    }),
  ],
};
const priceUsdPerToken = 10 / 1e6;
const schema = {
  type: 'object',
  properties: { answer: { type: 'string' } },
  required: ['answer'],
  additionalProperties: false,
};

interface WireBody {
  messages: { content: string | { text?: string }[] }[];
  max_tokens?: number;
  max_completion_tokens?: number;
  stream?: boolean;
}

/** What an honest provider bills as input: every message's text, and the schema it was sent. */
function promptTokensOf(body: WireBody): number {
  let tokens = estimateTokens(JSON.stringify(schema));
  for (const message of body.messages) {
    const text =
      typeof message.content === 'string'
        ? message.content
        : message.content.map((p) => p.text ?? '').join('');
    tokens += 8 + estimateTokens(text);
  }
  return tokens;
}

function completion(content: string, promptTokens: number, completionTokens = estimateTokens(content)) {
  return Response.json({
    id: 'chatcmpl-1',
    object: 'chat.completion',
    model: 'billed',
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
    usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: 0 },
  });
}

/** A first answer of about 2,000 output tokens that breaks the schema, then a valid one. */
function honestRepairUpstream() {
  const sent: WireBody[] = [];
  const notes = Array.from({ length: 440 }, (_, i) => `note${i}`).join(' ');
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (_input, init) => {
    const body = JSON.parse(String(init?.body)) as WireBody;
    sent.push(body);
    const content = sent.length === 1 ? JSON.stringify({ notes }) : JSON.stringify({ answer: 'ok' });
    return completion(content, promptTokensOf(body));
  });
  return sent;
}

function post(key: string, body: unknown, accept = 'application/json') {
  return callWithCatalog(
    catalog,
    '/v1/reason',
    {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${key}`, Accept: accept },
      body: JSON.stringify(body),
    },
    { PROVIDER_BILLING_KEY: 'sk-billing' },
  );
}

interface Attempt {
  outcome: string;
  reason?: string;
  detail?: string;
  costUsd: number;
}
type Answer = {
  costUsd?: number;
  output?: { text?: string };
  warnings?: { code: string; message: string }[];
  usage?: { outputTokens: number };
  decision?: { attempts: Attempt[] };
  error?: { code: string; details: { decision: { attempts: Attempt[] } } };
};

function attemptsOf(answer: Answer): Attempt[] {
  return answer.decision?.attempts ?? answer.error?.details.decision.attempts ?? [];
}

const request = {
  task: 'extract',
  instructions: 'Answer with the JSON the schema asks for.',
  output: { format: 'json', schema },
};

afterEach(() => {
  vi.restoreAllMocks();
});

describe('every attempt is planned from the prompt it sends', () => {
  it('refuses a JSON repair whose prompt (carrying the first answer) no longer fits maxCostUsd', async () => {
    const sent = honestRepairUpstream();
    const { key } = await createKey('repair-cost', ['reason']);
    const maxCostUsd = 0.03;
    const { res, settled } = await post(key, {
      ...request,
      modelPolicy: { maxCostUsd, maxOutputTokens: 2_500, allowFallback: false },
    });
    const answer = (await res.json()) as Answer;
    await settled();
    const attempts = attemptsOf(answer);
    const spent = attempts.reduce((sum, a) => sum + a.costUsd, 0);
    expect(spent).toBeLessThanOrEqual(maxCostUsd);
    // Refused before it was sent, and the trace says why.
    expect(sent).toHaveLength(1);
    expect(res.status).toBe(422);
    expect(answer.error?.code).toBe('policy.budget_exhausted');
    expect(attempts.map((a) => [a.outcome, a.reason])).toEqual([
      ['ok', undefined],
      ['skipped', 'cost'],
    ]);
    expect(attempts[1]?.detail).toMatch(/input alone costs/);
  });

  it('keeps a capped tenant’s settled spend within its cap when the repair would not fit', async () => {
    honestRepairUpstream();
    const tenant = 'repair-cap';
    const { key } = await createKey(tenant, ['reason']);
    const capUsd = 0.03;
    const put = await call(`/v1/admin/tenants/${tenant}/budget`, {
      method: 'PUT',
      headers: { Authorization: `Bearer ${adminToken}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ monthlyCapUsd: capUsd }),
    });
    expect(put.status).toBe(200);
    const { res, settled } = await post(key, {
      ...request,
      modelPolicy: { maxOutputTokens: 2_500, allowFallback: false },
    });
    await res.arrayBuffer();
    await settled();
    const status = await env.TENANT_BUDGET.getByName(tenant).status();
    expect(status.reservedUsd).toBe(0);
    expect(status.spentUsd).toBeGreaterThan(0);
    expect(status.spentUsd).toBeLessThanOrEqual(capUsd);
  });
});

describe('a refused reservation', () => {
  it('says that the reservation, not the spend, did not fit, and how much of the cap is free', async () => {
    const tenant = 'reserved-out';
    const { key } = await createKey(tenant, ['reason']);
    const capUsd = 0.02;
    await call(`/v1/admin/tenants/${tenant}/budget`, {
      method: 'PUT',
      headers: { Authorization: `Bearer ${adminToken}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ monthlyCapUsd: capUsd }),
    });
    // A request still running holds most of the cap; nothing is spent.
    const held = await env.TENANT_BUDGET.getByName(tenant).drawLease(null, 0.015, 0);
    expect(held.ok).toBe(true);
    const { res } = await post(key, { ...request, modelPolicy: { maxOutputTokens: 2_500 } });
    expect(res.status).toBe(402);
    const body = (await res.json()) as {
      error: { code: string; message: string; details: Record<string, number> };
    };
    expect(body.error.code).toBe('limit.budget_exhausted');
    expect(body.error.message).not.toMatch(/reached/);
    expect(body.error.message).toMatch(/reservation does not fit/);
    expect(body.error.details).toMatchObject({ capUsd, spentUsd: 0, reservedUsd: 0.015 });
    expect(body.error.details.freeUsd).toBeCloseTo(0.005, 12);
    expect(body.error.details.requiredUsd).toBeGreaterThan(0.005);
  });
});

describe('a provider that ignores max_tokens', () => {
  it('JSON: counts what it billed, warns model.over_budget, and records it in the trace and the usage record', async () => {
    const tenant = 'over-biller';
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (_input, init) => {
      const body = JSON.parse(String(init?.body)) as WireBody;
      // Bills 50 times the max_tokens it was given.
      const cap = body.max_completion_tokens ?? body.max_tokens ?? 0;
      return completion('{"answer":"ok"}', promptTokensOf(body), cap * 50);
    });
    const { key } = await createKey(tenant, ['reason']);
    const { res, settled } = await post(key, { ...request, modelPolicy: { maxOutputTokens: 100 } });
    const answer = (await res.json()) as Answer;
    await settled();
    expect(res.status).toBe(200);
    expect(answer.costUsd).toBeGreaterThan(5_000 * priceUsdPerToken);
    expect(answer.warnings?.map((w) => w.code)).toContain('model.over_budget');
    expect(attemptsOf(answer)[0]?.detail).toMatch(/max_tokens 100/);
    const row = await env.DB.prepare('SELECT outcome, cost_usd FROM usage_records WHERE tenant = ?')
      .bind(tenant)
      .first<{ outcome: string; cost_usd: number }>();
    expect(row?.outcome).toBe('model.over_budget');
    expect(row?.cost_usd).toBeCloseTo(answer.costUsd ?? 0, 12);
  });

  it('streaming: stops reading at the attempt’s token cap, and warns model.over_budget', async () => {
    const frames = Array.from({ length: 400 }, (_, i) => ({
      id: 'c',
      object: 'chat.completion.chunk',
      model: 'billed',
      choices: [{ index: 0, delta: { content: `word${i} ` }, finish_reason: null }],
    }));
    let pulled = 0;
    vi.spyOn(globalThis, 'fetch').mockImplementation(async () => {
      const encoder = new TextEncoder();
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          const frame = frames[pulled++];
          if (frame) controller.enqueue(encoder.encode(`data: ${JSON.stringify(frame)}\n\n`));
          else controller.close();
        },
      });
      return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
    });
    const { key } = await createKey('over-streamer', ['reason']);
    const { res, settled } = await post(
      key,
      { task: 'write', instructions: 'Write.', modelPolicy: { maxOutputTokens: 30 } },
      'text/event-stream',
    );
    const events = parseSse(await res.text());
    await settled();
    expect(checkStreamOrder(events)).toEqual([]);
    const last = events[events.length - 1] as { type: string; response: Answer };
    expect(last.response.warnings?.map((w) => w.code)).toContain('model.over_budget');
    // What was sent stays within the cap; what is counted covers the cap and every delta read, the one
    // that crossed it included (the provider generated it, and bills it).
    expect(estimateTokens(last.response.output?.text ?? '')).toBeLessThanOrEqual(30);
    expect(last.response.usage?.outputTokens).toBeGreaterThanOrEqual(30);
    expect(last.response.costUsd).toBeGreaterThanOrEqual(30 * priceUsdPerToken);
    expect(pulled).toBeLessThan(frames.length);
  });
});
