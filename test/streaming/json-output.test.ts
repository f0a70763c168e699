import { describe, expect, it } from 'vitest';
import type { ReasonRequest } from '../../src/contracts/reason-request';
import { reasonResponseSchema } from '../../src/contracts/reason-response';
import { decodeRegionBody } from '../../src/prompt/encode-region-body';
import { parseRegions } from '../../src/prompt/parse-regions';
import { checkAgainstSchema } from '../../src/reason/check-json';
import { repairRequest } from '../../src/reason/check-output';
import { checkToolCall } from '../../src/reason/check-tool-call';
import { createKey } from '../helpers/api';
import { catalogOf, simModel } from '../helpers/catalog-fixtures';
import { deltaText, readStream, terminalOf } from '../helpers/read-stream';
import { streamWithCatalog } from '../helpers/stream-call';

const schema = {
  type: 'object',
  properties: { severity: { enum: ['low', 'high'] }, summary: { type: 'string', minLength: 3 } },
  required: ['severity', 'summary'],
  additionalProperties: false,
};
const body = { task: 'classify', instructions: 'Classify the ticket.', output: { format: 'json', schema } };

describe('output.format json', () => {
  it('passes a schema-valid answer, as JSON and as one streamed delta', async () => {
    const { key } = await createKey('json-valid');
    const catalog = catalogOf([simModel('j-good')]);
    const json = await streamWithCatalog(catalog, key, body, 'application/json');
    const answer = reasonResponseSchema.parse(await json.res.json());
    expect(answer.output.format).toBe('json');
    expect(checkAgainstSchema((answer.output as { value: unknown }).value, schema)).toEqual({ ok: true });
    const events = await readStream((await streamWithCatalog(catalog, key, body)).res);
    const streamed = reasonResponseSchema.parse(terminalOf(events).response);
    expect(JSON.parse(deltaText(events))).toEqual((streamed.output as { value: unknown }).value);
    expect(streamed.output).toEqual(answer.output);
  });

  it('repairs an invalid answer once, with the validation errors as feedback, inside the budget', async () => {
    const { key } = await createKey('json-repair');
    const catalog = catalogOf([simModel('j-fixable', { simulate: { invalidJson: 'until_feedback' } })]);
    for (const accept of ['application/json', 'text/event-stream']) {
      const { res } = await streamWithCatalog(catalog, key, body, accept);
      const answer = reasonResponseSchema.parse(
        accept === 'application/json' ? await res.json() : terminalOf(await readStream(res)).response,
      );
      expect(checkAgainstSchema((answer.output as { value: unknown }).value, schema)).toEqual({ ok: true });
      expect(answer.decision.attempts.map((a) => [a.model, a.outcome])).toEqual([
        ['j-fixable', 'ok'],
        ['j-fixable', 'ok'],
      ]);
      expect(answer.costUsd).toBeCloseTo(
        answer.decision.attempts[0]!.costUsd + answer.decision.attempts[1]!.costUsd,
      );
    }
  });

  it('fails with model.invalid_response and the validation errors when the repair is invalid too', async () => {
    const { key } = await createKey('json-broken');
    const catalog = catalogOf([simModel('j-broken', { simulate: { invalidJson: 'always' } })]);
    const { res } = await streamWithCatalog(catalog, key, body, 'application/json');
    expect(res.status).toBe(502);
    const { error } = (await res.json()) as { error: { code: string; details: Record<string, unknown> } };
    expect(error.code).toBe('model.invalid_response');
    expect(error.details.validationErrors).toEqual([
      { path: '#', keyword: 'type', message: expect.stringContaining('object') },
    ]);
    const events = await readStream((await streamWithCatalog(catalog, key, body)).res);
    // JSON is held until it validates, so nothing was sent: emittedDeltas is false.
    expect(events.map((e) => e.type)).toEqual(['response.error']);
    expect(terminalOf(events)).toMatchObject({
      emittedDeltas: false,
      error: { code: 'model.invalid_response', details: { validationErrors: [{ keyword: 'type' }] } },
    });
  });

  it('gives its answer and the errors to the model as data regions of the final user turn, never a system part', () => {
    const nonce = 'a'.repeat(32);
    const repaired = repairRequest(
      { messages: [{ role: 'user', content: [{ type: 'text', text: 'q' }] }] },
      { nonce, mode: 'tags' },
      {
        message: { role: 'assistant', content: [{ type: 'json', value: ['<b>'] }] },
        usage: { input_tokens: 1, output_tokens: 1 },
        finish_reason: 'stop',
      },
      [{ path: '#', keyword: 'type', message: 'Instance type "array" is invalid. Expected "object".' }],
    );
    expect(repaired.messages.map((m) => m.role)).toEqual(['user']);
    const feedback = repaired.messages[0]?.content[1];
    const text = feedback?.type === 'text' ? feedback.text : '';
    const regions = parseRegions(text, nonce);
    expect(regions.errors).toEqual([]);
    expect(regions.regions.map((r) => [r.attributes.id, r.attributes.trust])).toEqual([
      ['repair-answer', undefined],
      ['repair-findings', undefined],
    ]);
    expect(decodeRegionBody(regions.regions[0]?.body ?? '', 'tags', '')).toBe('["<b>"]');
    expect(decodeRegionBody(regions.regions[1]?.body ?? '', 'tags', '')).toContain('Expected "object"');
  });
});

describe('tool call checks', () => {
  const request: ReasonRequest = {
    task: 't',
    instructions: 'i',
    tools: [
      { name: 'read', inputSchema: { type: 'object' }, annotations: { readOnly: true } },
      { name: 'write', inputSchema: { type: 'object', properties: { n: { type: 'integer' } } } },
      { name: 'wipe', inputSchema: { type: 'object' }, annotations: { readOnly: true, destructive: true } },
    ],
  };
  const call = (name: string, rawArgs: string, tainted = true) =>
    checkToolCall(request, { id: 'c1', name, rawArgs }, tainted);

  it('rejects unknown tools, arguments that are not a JSON object, and arguments against inputSchema', () => {
    expect(call('nope', '{}')).toMatchObject({
      ok: false,
      invalid: { type: 'invalid_tool_call', code: 'tool.unknown' },
    });
    expect(call('read', '{"a":')).toMatchObject({
      ok: false,
      invalid: { code: 'tool.invalid_json', raw_args: '{"a":' },
    });
    expect(call('read', '[1]')).toMatchObject({ ok: false, invalid: { code: 'tool.invalid_json' } });
    expect(call('write', '{"n":"x"}')).toMatchObject({
      ok: false,
      invalid: { code: 'tool.invalid_arguments' },
    });
    expect(call('read', '')).toMatchObject({ ok: true, call: { arguments: {} } });
  });

  it('asks for approval only for tainted calls to tools that are destructive or not read-only', () => {
    const approval = (name: string, tainted: boolean) => {
      const result = call(name, '{}', tainted);
      return result.ok ? result.call.approval?.allowed : 'invalid';
    };
    expect(approval('read', true)).toBeUndefined();
    expect(approval('write', true)).toEqual(['approve', 'edit', 'reject', 'respond']);
    expect(approval('wipe', true)).toEqual(['approve', 'edit', 'reject', 'respond']);
    expect(approval('write', false)).toBeUndefined();
    expect(call('write', '{}', false)).toMatchObject({ ok: true, call: { tainted: false } });
  });
});
