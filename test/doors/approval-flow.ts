import { trustRootSchema } from '../../src/contracts/trust-root';
import type { Catalog } from '../../src/policy/catalog';
import { verifyCapability } from '../../src/receipts/capability-token';
import anthropicText from '../fixtures/providers/anthropic/text.json';
import { call, createKey, postJson } from '../helpers/api';
import { simModel } from '../helpers/catalog-fixtures';

// What the door approval tests share: a destructive tool the simulator calls when told to, the keys of
// an agent and a reviewer of one tenant, a reviewer's decision, the capability check a tool executor
// makes, and an Anthropic model behind a fake upstream for the turn after a reject.

export const deleteFilesSchema = {
  type: 'object',
  required: ['path'],
  properties: { path: { type: 'string', minLength: 1 } },
  additionalProperties: false,
};

export const destructiveOptions = { toolAnnotations: { delete_files: { destructive: true } } };

export async function keysOf(tenant: string) {
  return {
    agent: await createKey(tenant, ['reason']),
    reviewer: await createKey(tenant, ['approvals:write']),
  };
}

export function decide(key: string, callId: string, body: unknown): Promise<Response> {
  return postJson(`/v1/approvals/${callId}`, body, { Authorization: `Bearer ${key}` });
}

export async function decideOk(key: string, callId: string, body: unknown): Promise<void> {
  const res = await decide(key, callId, body);
  if (res.status !== 200) throw new Error(`deciding failed: ${res.status} ${await res.text()}`);
}

/** Whether a tool executor holding the pinned trust root would run `tool` with `args` on this token. */
export async function executorAccepts(
  token: string,
  check: { tool: string; args: unknown; tenant: string },
): Promise<boolean> {
  const root = trustRootSchema.parse(await (await call('/v1/trust-root')).json());
  return (await verifyCapability(token, root, check)).ok;
}

export const anthropicCatalog: Catalog = {
  providers: [{ id: 'anthropic', kind: 'anthropic', apiKeyEnv: 'ANTHROPIC_API_KEY' }],
  models: [
    simModel('claude-sonnet-4-6', {
      provider: 'anthropic',
      simulate: undefined,
      priceUsdPerMTok: { input: 3, output: 15 },
      contextTokens: 200_000,
    }),
  ],
};

export const anthropicEnv = { ANTHROPIC_API_KEY: 'sk-ant-test' };

/** A recorded Anthropic answer in text, for the fake upstream. */
export function anthropicAnswer(): Response {
  return new Response(JSON.stringify(anthropicText), { headers: { 'content-type': 'application/json' } });
}
