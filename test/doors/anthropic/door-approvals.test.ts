import { afterEach, describe, expect, it, vi } from 'vitest';
import { decidedExtensionSchema, doorExtensionSchema } from '../../../src/contracts/door-approvals';
import { callWithCatalog } from '../../helpers/with-catalog';
import {
  anthropicAnswer,
  anthropicCatalog,
  anthropicEnv,
  decideOk,
  deleteFilesSchema,
  destructiveOptions,
  executorAccepts,
  keysOf,
} from '../approval-flow';
import { eventsOf, messages, userMessage } from './anthropic-calls';

// A held call at the Anthropic door: kept out of the `tool_use` blocks with its approval request in
// `valve.approvals`, refused as a continuation until a reviewer decides it (the options in the body or
// in the x-valve-options header, as Claude Code sends them), then a `tool_use` block with its token,
// or the reviewer's rejection as the `tool_result` (`is_error`) the model reads.

afterEach(() => {
  vi.restoreAllMocks();
});

const tools = [{ name: 'delete_files', input_schema: deleteFilesSchema }];
const ask = userMessage('Tidy up: call delete_files now.');

interface Message {
  content: { type: string; text?: string; id?: string; name?: string; input?: unknown }[];
  stop_reason: string;
  valve: unknown;
}

async function held(key: string) {
  const res = await messages(key, {
    model: 'auto',
    max_tokens: 512,
    messages: [ask],
    tools,
    valve: destructiveOptions,
  });
  expect(res.status).toBe(200);
  const json = (await res.json()) as Message;
  const valve = doorExtensionSchema.parse(json.valve);
  const [request] = valve.approvals ?? [];
  if (request === undefined) throw new Error('nothing was held');
  const note = json.content.find((block) => block.type === 'text')?.text ?? '';
  const continuation = {
    model: 'auto',
    max_tokens: 512,
    messages: [ask, { role: 'assistant', content: note }, userMessage('Go on.')],
    tools,
  };
  const options = { ...destructiveOptions, approvals: [{ callId: request.callId }] };
  return { json, valve, request, continuation, options };
}

describe('a held call at the Anthropic door', () => {
  it('keeps it out of tool_use and shows its approval request in valve.approvals', async () => {
    const { agent } = await keysOf('anth-appr-show');
    const { json, valve, request } = await held(agent.key);
    expect(json.content.some((block) => block.type === 'tool_use')).toBe(false);
    expect(json.stop_reason).toBe('end_turn');
    expect(request).toMatchObject({
      callId: valve.toolCalls[0]?.id,
      receiptId: valve.receiptId,
      tool: 'delete_files',
      args: valve.toolCalls[0]?.arguments,
      allowed: ['approve', 'edit', 'reject', 'respond'],
    });
  });

  it('refuses a continuation before a reviewer decides: 409 in Anthropic’s shape', async () => {
    const { agent } = await keysOf('anth-appr-pending');
    const { continuation, options } = await held(agent.key);
    const res = await messages(agent.key, { ...continuation, valve: options });
    expect(res.status).toBe(409);
    const body = (await res.json()) as { type: string; valve: { code: string } };
    expect(body.type).toBe('error');
    expect(body.valve.code).toBe('approval.pending');
  });

  it('after an approve, answers a tool_use block with a token, the options in x-valve-options', async () => {
    const { agent, reviewer } = await keysOf('anth-appr-approve');
    const { request, continuation, options } = await held(agent.key);
    await decideOk(reviewer.key, request.callId, { type: 'approve' });
    const res = await messages(agent.key, continuation, { 'x-valve-options': JSON.stringify(options) });
    expect(res.status).toBe(200);
    const json = (await res.json()) as Message;
    expect(json.stop_reason).toBe('tool_use');
    expect(json.content).toEqual([
      { type: 'tool_use', id: request.callId, name: 'delete_files', input: request.args },
    ]);
    const valve = decidedExtensionSchema.parse(json.valve);
    expect(valve.approval).toMatchObject({
      status: 'approved',
      decidedBy: reviewer.id,
      receiptId: request.receiptId,
    });
    const token = valve.toolCalls[0]?.capability ?? '';
    const tenant = 'anth-appr-approve';
    expect(await executorAccepts(token, { tool: 'delete_files', args: request.args, tenant })).toBe(true);
    expect(await executorAccepts(token, { tool: 'delete_files', args: { path: '/etc' }, tenant })).toBe(
      false,
    );
  });

  it('streams the edited call as a tool_use block and stop_reason tool_use', async () => {
    const { agent, reviewer } = await keysOf('anth-appr-edit');
    const { request, continuation, options } = await held(agent.key);
    const edited = { path: '/srv/tmp' };
    await decideOk(reviewer.key, request.callId, { type: 'edit', args: edited });
    const res = await messages(agent.key, { ...continuation, stream: true, valve: options });
    expect(res.status).toBe(200);
    const events = await eventsOf(res);
    expect(events.map((e) => e.event)).toEqual([
      'message_start',
      'ping',
      'content_block_start',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    expect(events[3]?.json.delta).toEqual({ type: 'input_json_delta', partial_json: JSON.stringify(edited) });
    const delta = events[5]?.json as { delta: { stop_reason: string }; valve: unknown };
    expect(delta.delta.stop_reason).toBe('tool_use');
    const valve = decidedExtensionSchema.parse(delta.valve);
    expect(valve.approval.status).toBe('edited');
    const token = valve.toolCalls[0]?.capability ?? '';
    const tenant = 'anth-appr-edit';
    expect(await executorAccepts(token, { tool: 'delete_files', args: edited, tenant })).toBe(true);
    expect(await executorAccepts(token, { tool: 'delete_files', args: request.args, tenant })).toBe(false);
  });

  it('after a reject, the model gets the reviewer’s message as an is_error tool_result, with a receipt', async () => {
    const { agent, reviewer } = await keysOf('anth-appr-reject');
    const { request, continuation, options } = await held(agent.key);
    await decideOk(reviewer.key, request.callId, { type: 'reject', message: 'Ask the owner first.' });
    const sent: { messages: { role: string; content: unknown }[] }[] = [];
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (_input, init) => {
      sent.push(JSON.parse(String(init?.body)));
      return anthropicAnswer();
    });
    const { res } = await callWithCatalog(
      anthropicCatalog,
      '/anthropic/v1/messages',
      {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'x-api-key': agent.key },
        body: JSON.stringify({ ...continuation, model: 'anthropic/claude-sonnet-4-6', valve: options }),
      },
      anthropicEnv,
    );
    expect(res.status).toBe(200);
    const blocks = (sent[0]?.messages ?? []).flatMap((m) =>
      Array.isArray(m.content) ? (m.content as Record<string, unknown>[]) : [],
    );
    expect(blocks).toContainEqual({
      type: 'tool_use',
      id: request.callId,
      name: 'delete_files',
      input: request.args,
    });
    const result = blocks.find((block) => block.type === 'tool_result');
    expect(result).toMatchObject({ tool_use_id: request.callId, is_error: true });
    expect(JSON.stringify(result)).toContain('Ask the owner first.');
    const valve = doorExtensionSchema.parse(((await res.json()) as Message).valve);
    expect(valve.receipt.jws).toBeTruthy();
  });
});
