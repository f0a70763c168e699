import { describe, expect, it } from 'vitest';
import { reasonResponseSchema } from '../../src/contracts/reason-response';
import { createKey, reason } from '../helpers/api';
import { responseValidator, validates } from '../helpers/json-schemas';

const body = {
  task: 'summarize',
  instructions: 'Summarize the ticket in one sentence.',
  context: [{ label: 'ticket', trust: 'untrusted', privacy: 'internal', content: 'The printer is on fire.' }],
};

describe('POST /v1/reason', () => {
  it('answers with a response that validates against both the zod and the JSON Schema contract', async () => {
    const { key } = await createKey();
    const res = await reason(key, body);
    expect(res.status).toBe(200);
    const json = await res.json();
    expect(reasonResponseSchema.safeParse(json).success).toBe(true);
    expect(validates(responseValidator, json)).toBe(true);
  });

  it('routes by quality to the best simulator model and explains the plan', async () => {
    const { key } = await createKey();
    const json = reasonResponseSchema.parse(await (await reason(key, body)).json());
    expect(json.model).toEqual({ provider: 'sim', model: 'deep', region: 'us' });
    expect(json.decision.plan.map((p) => p.model)).toEqual(['deep', 'balanced', 'fast']);
    expect(json.decision.attempts).toMatchObject([{ provider: 'sim', model: 'deep', outcome: 'ok' }]);
    expect(json.output.format).toBe('text');
    expect(json.warnings.map((w) => w.code)).toContain('model.simulated');
  });

  it('routes by cost to the cheapest model and excludes models outside the allowed regions', async () => {
    const { key } = await createKey();
    const res = await reason(key, { ...body, modelPolicy: { prefer: 'cost', regions: ['eu'] } });
    const json = reasonResponseSchema.parse(await res.json());
    expect(json.model).toEqual({ provider: 'sim', model: 'fast', region: 'eu' });
    expect(json.decision.excluded.filter((e) => e.provider === 'sim')).toEqual([
      { provider: 'sim', model: 'deep', reason: 'region', detail: 'serves us only' },
    ]);
  });

  it('keeps the caller’s receiptId', async () => {
    const { key } = await createKey();
    const receiptId = '3f0e2a6c-5b1d-4c8e-9a7f-0123456789ab';
    const json = reasonResponseSchema.parse(await (await reason(key, { ...body, receiptId })).json());
    expect(json.receiptId).toBe(receiptId);
  });

  it('answers JSON output with a value that the simulator made to fit the schema', async () => {
    const { key } = await createKey();
    const schema = {
      type: 'object',
      required: ['severity', 'tags'],
      properties: { severity: { enum: ['low', 'high'] }, tags: { type: 'array', items: { type: 'string' } } },
    };
    const res = await reason(key, { ...body, output: { format: 'json', schema } });
    const json = reasonResponseSchema.parse(await res.json());
    expect(json.output).toEqual({ format: 'json', value: { severity: 'low', tags: [expect.any(String)] } });
  });

  it('calls a listed tool the instructions name, and marks it tainted when untrusted context was present', async () => {
    const { key } = await createKey();
    const tools = [
      {
        name: 'lookup_order',
        inputSchema: { type: 'object', required: ['id'], properties: { id: { type: 'string' } } },
      },
    ];
    const res = await reason(key, { ...body, instructions: 'Call lookup_order for the ticket.', tools });
    const json = reasonResponseSchema.parse(await res.json());
    expect(json.finishReason).toBe('tool_calls');
    expect(json.toolCalls).toMatchObject([
      { name: 'lookup_order', arguments: { id: expect.any(String) }, tainted: true },
    ]);
  });

  it('says why no model fits with 422 and every exclusion', async () => {
    const { key } = await createKey();
    const res = await reason(key, { ...body, modelPolicy: { regions: ['ap'] } });
    expect(res.status).toBe(422);
    const json = (await res.json()) as {
      error: { code: string; details: { excluded: { reason: string }[] } };
    };
    expect(json.error.code).toBe('policy.no_eligible_model');
    expect(json.error.details.excluded.map((e) => e.reason)).toEqual([
      'region',
      'region',
      'region',
      ...Array(7).fill('not_configured'),
    ]);
  });
});
