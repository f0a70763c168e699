import { env } from 'cloudflare:workers';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { decidedExtensionSchema, doorExtensionSchema } from '../../../src/contracts/door-approvals';
import { insertHeldCalls } from '../../../src/storage/approvals';
import { call, createKey, postJson } from '../../helpers/api';
import { callWithCatalog } from '../../helpers/with-catalog';
import {
  anthropicAnswer,
  anthropicCatalog,
  anthropicEnv,
  decide,
  decideOk,
  deleteFilesSchema,
  destructiveOptions,
  executorAccepts,
  keysOf,
} from '../approval-flow';
import { framesOf } from './door-calls';

// A held call at the OpenAI door, end to end: shown in the door's shape (Chat: `valve.approvals`;
// Responses: an `mcp_approval_request` item), refused as a continuation until a reviewer decides it,
// then handed over as a real tool call with a token an executor accepts for exactly its arguments, or
// put back into the conversation as the reviewer's rejection, which the model reads.

afterEach(() => {
  vi.restoreAllMocks();
});

const ask = { role: 'user', content: 'Tidy up: call delete_files now.' };
const chatTools = [{ type: 'function', function: { name: 'delete_files', parameters: deleteFilesSchema } }];

interface Completion {
  choices: {
    message: {
      content: string | null;
      tool_calls?: { id: string; function: { name: string; arguments: string } }[];
    };
    finish_reason: string;
  }[];
  valve: unknown;
}

function chat(key: string, body: Record<string, unknown>) {
  return postJson('/openai/v1/chat/completions', body, { Authorization: `Bearer ${key}` });
}

/** A chat conversation whose destructive call was held; what the client sends back to continue it. */
async function heldInChat(key: string) {
  const res = await chat(key, {
    model: 'auto',
    messages: [ask],
    tools: chatTools,
    valve: destructiveOptions,
  });
  expect(res.status).toBe(200);
  const json = (await res.json()) as Completion;
  const valve = doorExtensionSchema.parse(json.valve);
  const [held] = valve.approvals ?? [];
  if (held === undefined) throw new Error('nothing was held');
  const continuation = {
    model: 'auto',
    messages: [ask, { role: 'assistant', content: json.choices[0]?.message.content }],
    tools: chatTools,
    valve: { ...destructiveOptions, approvals: [{ callId: held.callId }] },
  };
  return { json, valve, held, continuation };
}

async function errorOf(res: Response) {
  return ((await res.json()) as { error: { code: string; type: string; message: string } }).error;
}

describe('a held call at the chat completions door', () => {
  it('keeps the call out of tool_calls and shows its approval request in valve.approvals', async () => {
    const { agent } = await keysOf('door-appr-show');
    const { json, valve, held } = await heldInChat(agent.key);
    expect(json.choices[0]?.message.tool_calls).toBeUndefined();
    expect(json.choices[0]?.message.content).toMatch(/^Valve held back 1 call\(s\)/);
    expect(held).toEqual({
      callId: valve.toolCalls[0]?.id,
      receiptId: valve.receiptId,
      tool: 'delete_files',
      args: valve.toolCalls[0]?.arguments,
      description: valve.toolCalls[0]?.approval?.description,
      allowed: ['approve', 'edit', 'reject', 'respond'],
      expiresAt: expect.any(Number),
    });
    expect(held.expiresAt).toBeGreaterThan(Date.now());
  });

  it('refuses a continuation before a reviewer decides (409 approval.pending)', async () => {
    const { agent } = await keysOf('door-appr-pending');
    const { held, continuation } = await heldInChat(agent.key);
    const res = await chat(agent.key, continuation);
    expect(res.status).toBe(409);
    const error = await errorOf(res);
    expect(error).toMatchObject({ code: 'approval.pending', type: 'conflict_error' });
    expect(error.message).toContain(`POST /v1/approvals/${held.callId}`);
  });

  it('answers 404 for a call no answer of this tenant held', async () => {
    const { agent } = await keysOf('door-appr-unknown');
    const res = await chat(agent.key, {
      model: 'auto',
      messages: [ask],
      valve: { approvals: [{ callId: 'call_nobody_held' }] },
    });
    expect(res.status).toBe(404);
    expect((await errorOf(res)).code).toBe('approval.not_found');
  });

  it('answers 410 for a call whose window has passed, unless the conversation already holds its result', async () => {
    const { agent } = await keysOf('door-appr-expired');
    const heldAt = Date.now() - 120_000;
    await insertHeldCalls(env.DB, [
      {
        tenant: 'door-appr-expired',
        receiptId: '1f0e2a6c-5b1d-4c8e-9a7f-0123456789ab',
        callId: 'call_too_late',
        tool: 'delete_files',
        args: { path: '/srv' },
        tools: [{ name: 'delete_files', inputSchema: deleteFilesSchema }],
        allowed: ['approve', 'reject'],
        tainted: true,
        heldAt,
        expiresAt: heldAt + 60_000,
      },
    ]);
    const res = await chat(agent.key, {
      model: 'auto',
      messages: [ask],
      valve: { approvals: [{ callId: 'call_too_late' }] },
    });
    expect(res.status).toBe(410);
    expect((await errorOf(res)).code).toBe('approval.expired');
    // Once the conversation holds the call's result, naming it is no longer looked up.
    const ran = await chat(agent.key, {
      model: 'auto',
      messages: [
        ask,
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: 'call_too_late',
              type: 'function',
              function: { name: 'delete_files', arguments: '{"path":"/srv"}' },
            },
          ],
        },
        { role: 'tool', tool_call_id: 'call_too_late', content: 'deleted' },
      ],
      tools: chatTools,
      valve: { approvals: [{ callId: 'call_too_late' }] },
    });
    expect(ran.status).toBe(200);
  });

  it('after an approve, answers the call without a model, with a token for exactly its arguments', async () => {
    const { agent, reviewer } = await keysOf('door-appr-approve');
    const { held, continuation } = await heldInChat(agent.key);
    await decideOk(reviewer.key, held.callId, { type: 'approve' });
    const res = await chat(agent.key, continuation);
    expect(res.status).toBe(200);
    expect(res.headers.get('X-Valve-Receipt-Id')).toBeNull();
    const json = (await res.json()) as Completion;
    expect(json.choices[0]?.finish_reason).toBe('tool_calls');
    expect(json.choices[0]?.message.tool_calls).toEqual([
      {
        id: held.callId,
        type: 'function',
        function: { name: 'delete_files', arguments: JSON.stringify(held.args) },
      },
    ]);
    const valve = decidedExtensionSchema.parse(json.valve);
    expect(valve.receipt).toBeNull();
    expect(valve.approval).toMatchObject({
      callId: held.callId,
      receiptId: held.receiptId,
      status: 'approved',
      decidedBy: reviewer.id,
    });
    expect(valve.approval.auditSeq).toBeGreaterThan(0);
    const token = valve.toolCalls[0]?.capability ?? '';
    const tenant = 'door-appr-approve';
    expect(await executorAccepts(token, { tool: 'delete_files', args: held.args, tenant })).toBe(true);
    expect(await executorAccepts(token, { tool: 'delete_files', args: { path: '/' }, tenant })).toBe(false);
    expect(await executorAccepts(token, { tool: 'delete_files', args: held.args, tenant: 'other' })).toBe(
      false,
    );
  });

  it('streams the approved call as a tool_calls chunk and a tool_calls finish', async () => {
    const { agent, reviewer } = await keysOf('door-appr-stream');
    const { held, continuation } = await heldInChat(agent.key);
    await decideOk(reviewer.key, held.callId, { type: 'approve' });
    const res = await chat(agent.key, { ...continuation, stream: true });
    expect(res.status).toBe(200);
    const frames = await framesOf(res);
    expect(frames.at(-1)?.data).toBe('[DONE]');
    const deltas = frames.map(
      (f) => (f.json?.choices as { delta: Record<string, unknown> }[] | undefined)?.[0],
    );
    expect(deltas.flatMap((d) => (d?.delta.tool_calls as unknown[] | undefined) ?? [])).toEqual([
      {
        index: 0,
        id: held.callId,
        type: 'function',
        function: { name: 'delete_files', arguments: JSON.stringify(held.args) },
      },
    ]);
    const finish = frames.find((f) => f.json?.valve !== undefined);
    const choices = (finish?.json?.choices ?? []) as { finish_reason: string }[];
    expect(choices[0]?.finish_reason).toBe('tool_calls');
    expect(decidedExtensionSchema.parse(finish?.json?.valve).approval.status).toBe('approved');
  });

  it('after an edit, answers the reviewer’s arguments, and the token holds for those only', async () => {
    const { agent, reviewer } = await keysOf('door-appr-edit');
    const { held, continuation } = await heldInChat(agent.key);
    const edited = { path: '/srv/reports/tmp' };
    await decideOk(reviewer.key, held.callId, { type: 'edit', args: edited });
    const json = (await (await chat(agent.key, continuation)).json()) as Completion;
    expect(json.choices[0]?.message.tool_calls?.[0]?.function.arguments).toBe(JSON.stringify(edited));
    const valve = decidedExtensionSchema.parse(json.valve);
    expect(valve.approval.status).toBe('edited');
    const token = valve.toolCalls[0]?.capability ?? '';
    const tenant = 'door-appr-edit';
    expect(await executorAccepts(token, { tool: 'delete_files', args: edited, tenant })).toBe(true);
    expect(await executorAccepts(token, { tool: 'delete_files', args: held.args, tenant })).toBe(false);
  });

  it('once the client sent the tool’s result, continues with the model as usual', async () => {
    const { agent, reviewer } = await keysOf('door-appr-ran');
    const { held, continuation } = await heldInChat(agent.key);
    await decideOk(reviewer.key, held.callId, { type: 'approve' });
    const wire = { id: held.callId, type: 'function', function: { name: 'delete_files', arguments: '{}' } };
    const res = await chat(agent.key, {
      ...continuation,
      messages: [
        ...continuation.messages,
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ ...wire, function: { ...wire.function, arguments: JSON.stringify(held.args) } }],
        },
        { role: 'tool', tool_call_id: held.callId, content: 'deleted' },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('X-Valve-Receipt-Id')).not.toBeNull();
    expect(doorExtensionSchema.parse(((await res.json()) as Completion).valve).receipt.jws).toBeTruthy();
  });

  it('after a reject, the model reads the reviewer’s rejection as an error result, and the answer has a receipt', async () => {
    const { agent, reviewer } = await keysOf('door-appr-reject');
    const { held, continuation } = await heldInChat(agent.key);
    await decideOk(reviewer.key, held.callId, { type: 'reject', message: 'Not from a ticket.' });
    const sent: { messages: { role: string; content: unknown }[] }[] = [];
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (_input, init) => {
      sent.push(JSON.parse(String(init?.body)));
      return anthropicAnswer();
    });
    const { res } = await callWithCatalog(
      anthropicCatalog,
      '/openai/v1/chat/completions',
      {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${agent.key}` },
        body: JSON.stringify({ ...continuation, model: 'anthropic/claude-sonnet-4-6' }),
      },
      anthropicEnv,
    );
    expect(res.status).toBe(200);
    const upstream = JSON.stringify(sent[0]?.messages);
    expect(upstream).toContain(
      JSON.stringify({ type: 'tool_use', id: held.callId, name: 'delete_files', input: held.args }),
    );
    const result = sent[0]?.messages
      .flatMap((m) => (Array.isArray(m.content) ? (m.content as Record<string, unknown>[]) : []))
      .find((block) => block.type === 'tool_result');
    expect(result).toMatchObject({ tool_use_id: held.callId, is_error: true });
    expect(JSON.stringify(result)).toContain('Not from a ticket.');
    const json = (await res.json()) as Completion;
    const valve = doorExtensionSchema.parse(json.valve);
    expect(res.headers.get('X-Valve-Receipt-Id')).toBe(valve.receiptId);
    expect(valve.receipt.jws).toBeTruthy();
  });
});

interface ResponseJson {
  output: Record<string, unknown>[];
  valve: unknown;
}

function responses(key: string, body: Record<string, unknown>) {
  return postJson('/openai/v1/responses', body, { Authorization: `Bearer ${key}` });
}

const responsesTools = [{ type: 'function', name: 'delete_files', parameters: deleteFilesSchema }];

async function heldInResponses(key: string) {
  const first = { model: 'auto', input: [ask], tools: responsesTools, valve: destructiveOptions };
  const res = await responses(key, first);
  expect(res.status).toBe(200);
  const json = (await res.json()) as ResponseJson;
  const request = json.output.find((item) => item.type === 'mcp_approval_request');
  if (request === undefined) throw new Error('no approval request');
  const answer = (approve: boolean, reason?: string) => ({
    ...first,
    input: [
      ask,
      ...json.output,
      { type: 'mcp_approval_response', approval_request_id: request.id, approve, ...(reason && { reason }) },
    ],
  });
  return { json, request, answer };
}

describe('a held call at the Responses door', () => {
  it('shows the held call as an mcp_approval_request item, in JSON and in the stream', async () => {
    const { agent } = await keysOf('door-appr-resp');
    const { json, request } = await heldInResponses(agent.key);
    const valve = doorExtensionSchema.parse(json.valve);
    const held = valve.toolCalls[0];
    expect(json.output.filter((item) => item.type === 'function_call')).toEqual([]);
    expect(request).toEqual({
      type: 'mcp_approval_request',
      id: `mcpr_${valve.receiptId}_${held?.id}`,
      server_label: 'valve',
      name: 'delete_files',
      arguments: JSON.stringify(held?.arguments),
    });
    const streamed = await responses(agent.key, {
      model: 'auto',
      input: [ask],
      tools: responsesTools,
      valve: destructiveOptions,
      stream: true,
    });
    const frames = await framesOf(streamed);
    const items = frames
      .filter((f) => f.event === 'response.output_item.done')
      .map((f) => f.json?.item as Record<string, unknown>);
    expect(items.filter((item) => item.type === 'mcp_approval_request')).toHaveLength(1);
    const completed = frames.find((f) => f.event === 'response.completed')?.json?.response as ResponseJson;
    expect(completed.output.map((item) => item.type)).toContain('mcp_approval_request');
    expect(doorExtensionSchema.parse(completed.valve).approvals).toHaveLength(1);
  });

  it('refuses the agent’s own mcp_approval_response before a reviewer decides (409), and decides nothing', async () => {
    const { agent, reviewer } = await keysOf('door-appr-resp-agent');
    const { answer } = await heldInResponses(agent.key);
    const res = await responses(agent.key, answer(true));
    expect(res.status).toBe(409);
    expect((await errorOf(res)).code).toBe('approval.pending');
    const list = await call('/v1/approvals?status=pending', {
      headers: { Authorization: `Bearer ${reviewer.key}` },
    });
    expect(((await list.json()) as { items: unknown[] }).items).toHaveLength(1);
  });

  it('refuses an approve that contradicts the reviewer’s reject (409 approval.decided)', async () => {
    const { agent, reviewer } = await keysOf('door-appr-resp-contra');
    const { json, answer } = await heldInResponses(agent.key);
    const callId = doorExtensionSchema.parse(json.valve).toolCalls[0]?.id ?? '';
    await decideOk(reviewer.key, callId, { type: 'reject' });
    const res = await responses(agent.key, answer(true));
    expect(res.status).toBe(409);
    expect((await errorOf(res)).code).toBe('approval.decided');
  });

  it('lets a key with approvals:write decide in-line, recorded like POST /v1/approvals', async () => {
    const { agent } = await keysOf('door-appr-resp-inline');
    const { json, answer } = await heldInResponses(agent.key);
    const valve = doorExtensionSchema.parse(json.valve);
    const both = await createKey('door-appr-resp-inline', ['reason', 'approvals:write']);
    const res = await responses(both.key, answer(true));
    expect(res.status).toBe(200);
    const decided = (await res.json()) as ResponseJson;
    expect(decided.output).toMatchObject([
      { type: 'function_call', call_id: valve.toolCalls[0]?.id, name: 'delete_files' },
    ]);
    const extension = decidedExtensionSchema.parse(decided.valve);
    expect(extension.approval).toMatchObject({
      status: 'approved',
      decidedBy: both.id,
      auditSeq: expect.any(Number),
    });
    expect(extension.toolCalls[0]?.capability).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    const again = await decide(both.key, valve.toolCalls[0]?.id ?? '', { type: 'approve' });
    expect(again.status).toBe(409);
  });

  it('takes an in-line approve: false as a reject with its reason, which the model reads once', async () => {
    const { agent } = await keysOf('door-appr-resp-reject');
    const { json, answer } = await heldInResponses(agent.key);
    const callId = doorExtensionSchema.parse(json.valve).toolCalls[0]?.id ?? '';
    const both = await createKey('door-appr-resp-reject', ['reason', 'approvals:write']);
    const sent: { messages: { content: unknown }[] }[] = [];
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (_input, init) => {
      sent.push(JSON.parse(String(init?.body)));
      return anthropicAnswer();
    });
    // The call is named twice: by the mcp_approval_response and in valve.approvals.
    const body = {
      ...answer(false, 'Not today.'),
      model: 'anthropic/claude-sonnet-4-6',
      valve: { ...destructiveOptions, approvals: [{ callId }] },
    };
    const { res } = await callWithCatalog(
      anthropicCatalog,
      '/openai/v1/responses',
      {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${both.key}` },
        body: JSON.stringify(body),
      },
      anthropicEnv,
    );
    expect(res.status).toBe(200);
    const results = (sent[0]?.messages ?? [])
      .flatMap((m) => (Array.isArray(m.content) ? (m.content as Record<string, unknown>[]) : []))
      .filter((block) => block.type === 'tool_result');
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ tool_use_id: callId, is_error: true });
    expect(JSON.stringify(results[0])).toContain('Not today.');
    const list = await call('/v1/approvals?status=rejected', {
      headers: { Authorization: `Bearer ${both.key}` },
    });
    expect(((await list.json()) as { items: unknown[] }).items).toMatchObject([
      { callId, status: 'rejected', decidedBy: both.id },
    ]);
  });
});
