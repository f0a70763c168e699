import type { Catalog } from '../../../src/policy/catalog';
import { call, postJson } from '../../helpers/api';
import { callWithCatalog } from '../../helpers/with-catalog';

// Calls to the Anthropic door, with the key as x-api-key (Anthropic's own way) unless told otherwise.

export function messages(key: string, body: unknown, headers: Record<string, string> = {}) {
  return postJson('/anthropic/v1/messages', body, { 'x-api-key': key, ...headers });
}

export function anthropicGet(path: string, key: string) {
  return call(`/anthropic/v1${path}`, { headers: { 'x-api-key': key } });
}

export function messagesWithCatalog(catalog: Catalog, key: string, path: string, body: unknown) {
  return callWithCatalog(catalog, `/anthropic/v1${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'x-api-key': key },
    body: JSON.stringify(body),
  });
}

export interface Event {
  event: string;
  json: Record<string, unknown>;
}

/** The SSE events of a body: each `event:` name and its JSON data. */
export async function eventsOf(res: Response): Promise<Event[]> {
  const text = await res.text();
  return text
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const lines = block.split('\n');
      const event = lines.find((line) => line.startsWith('event: '))?.slice(7) ?? '';
      const data = lines.find((line) => line.startsWith('data: '))?.slice(6) ?? '';
      return { event, json: JSON.parse(data) as Record<string, unknown> };
    });
}

export const userMessage = (text: string) => ({ role: 'user', content: text });
