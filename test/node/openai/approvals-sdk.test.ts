import OpenAI from 'openai';
import type { ResponseInputItem } from 'openai/resources/responses/responses';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Door, startDoor } from './door-harness';

// The Responses approval loop with the real openai SDK: a tainted call to a destructive tool comes back
// as an `mcp_approval_request` item; the agent's key cannot decide it; after a reviewer approves (POST
// /v1/approvals with its own key), the agent sends the SDK's own `mcp_approval_response` item, and the
// door hands the call over as a `function_call` with its capability token in `valve`.

let door: Door;

beforeAll(async () => {
  door = await startDoor();
});
afterAll(() => door?.stop());

const deleteFiles = {
  type: 'object',
  required: ['path'],
  properties: { path: { type: 'string', minLength: 1 } },
  additionalProperties: false,
};

async function reviewerKey(): Promise<string> {
  const res = await fetch(`${door.valve.url}/v1/admin/keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${door.valve.adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ tenant: 'e2e', scopes: ['approvals:write'] }),
  });
  return ((await res.json()) as { key: string }).key;
}

describe('the mcp_approval_request → mcp_approval_response loop with the openai SDK', () => {
  it('holds the call, refuses the agent’s own approval, and hands it over once a reviewer approved', async () => {
    const client = new OpenAI({
      baseURL: door.baseURL,
      apiKey: door.valve.key,
      fetch: door.fetch,
      maxRetries: 0,
    });
    const input: ResponseInputItem[] = [{ role: 'user', content: 'Tidy up: call delete_files now.' }];
    const params = {
      model: 'auto',
      tools: [{ type: 'function' as const, name: 'delete_files', parameters: deleteFiles, strict: false }],
      valve: { toolAnnotations: { delete_files: { destructive: true } } },
    };
    const first = await client.responses.create({ ...params, input });
    const request = first.output.find((item) => item.type === 'mcp_approval_request');
    expect(request).toMatchObject({
      type: 'mcp_approval_request',
      server_label: 'valve',
      name: 'delete_files',
    });
    expect(first.output.some((item) => item.type === 'function_call')).toBe(false);
    if (request?.type !== 'mcp_approval_request') throw new Error('no approval request');
    input.push(...(first.output as ResponseInputItem[]), {
      type: 'mcp_approval_response',
      approval_request_id: request.id,
      approve: true,
    });

    const refused = await client.responses.create({ ...params, input }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(OpenAI.ConflictError);
    expect((refused as InstanceType<typeof OpenAI.ConflictError>).code).toBe('approval.pending');

    const callId = request.id.slice('mcpr_'.length + 36 + 1);
    const decided = await fetch(`${door.valve.url}/v1/approvals/${callId}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${await reviewerKey()}`, 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'approve' }),
    });
    expect(decided.status).toBe(200);

    const approved = await client.responses.create({ ...params, input });
    const call = approved.output.find((item) => item.type === 'function_call');
    expect(call?.type === 'function_call' && call.call_id).toBe(callId);
    expect(call?.type === 'function_call' && JSON.parse(call.arguments)).toEqual(
      JSON.parse(request.arguments),
    );
    const valve = (approved as unknown as { valve: { receipt: null; toolCalls: { capability: string }[] } })
      .valve;
    expect(valve.receipt).toBeNull();
    expect(valve.toolCalls[0]?.capability).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
  });
});
