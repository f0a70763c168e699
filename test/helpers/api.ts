import { exports } from 'cloudflare:workers';
import { reasonResponseSchema } from '../../src/contracts/reason-response';
import type { Scope } from '../../src/contracts/scopes';

export const adminToken = 'test-admin-token';

/** A request to the worker under test, through its real fetch handler. */
export function call(path: string, init: RequestInit = {}): Promise<Response> {
  return exports.default.fetch(new Request(`http://valve.test${path}`, init));
}

export function postJson(
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  return call(path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

export interface CreatedKey {
  id: string;
  key: string;
  tenant: string;
  scopes: Scope[];
}

export async function createKey(
  tenant = 'acme',
  scopes: Scope[] = ['reason', 'receipts:read', 'usage:read'],
): Promise<CreatedKey> {
  const res = await postJson('/v1/admin/keys', { tenant, scopes }, { Authorization: `Bearer ${adminToken}` });
  if (res.status !== 201) throw new Error(`creating a key failed: ${res.status} ${await res.text()}`);
  return (await res.json()) as CreatedKey;
}

export function reason(key: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return postJson('/v1/reason', body, { Authorization: `Bearer ${key}`, ...headers });
}

/** The size of the log's latest checkpoint. */
export async function logSize(): Promise<number> {
  return ((await (await call('/v1/log/checkpoint')).json()) as { treeSize: number }).treeSize;
}

/** The receipt JWS of a successful Reason answer. */
export async function jwsOf(res: Response): Promise<string> {
  return reasonResponseSchema.parse(await res.json()).receipt.jws;
}
