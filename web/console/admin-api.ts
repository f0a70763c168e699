import type { ErrorBody } from '../../src/contracts/error-body';
import { currentToken } from './token-store';

// Every request the console makes goes to the Valve that served it: the admin API with the token in
// the Authorization header (never in the URL), and two public documents (the log's checkpoint, the
// trust root) without it. A failure becomes a ConsoleError whose message a person can act on.
// Answers are typed by the contracts (src/contracts/), which the server is tested against; the page
// checks only their top-level members, and so loads without zod and the schemas (a tenth the script).

export class ConsoleError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code?: string,
    readonly requestId?: string,
  ) {
    super(message);
    this.name = 'ConsoleError';
  }
}

export const wrongTokenMessage =
  'That admin token is not valid for this Valve. It is the ADMIN_TOKEN secret: in .dev.vars when you run Valve locally, or what you set with `wrangler secret put ADMIN_TOKEN` when deployed.';

let signedOut: (message: string) => void = () => {};

/** What the page does when Valve refuses the token (a wrong one, or one rotated since signing in). */
export function whenTokenRefused(handler: (message: string) => void): void {
  signedOut = handler;
}

async function send(method: string, path: string, body: unknown, admin: boolean): Promise<unknown> {
  const token = currentToken();
  if (admin && token === undefined) throw new ConsoleError('Sign in with the admin token first.', 401);
  const headers: Record<string, string> = { accept: 'application/json' };
  if (admin) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      credentials: 'omit',
      cache: 'no-store',
    });
  } catch {
    throw new ConsoleError('Valve did not answer. Is it still running, and is this network up?', 0);
  }
  const json: unknown = await res.json().catch(() => undefined);
  if (res.ok) return json;
  const error = (json as Partial<ErrorBody> | undefined)?.error;
  if (typeof error?.code !== 'string' || typeof error.message !== 'string')
    throw new ConsoleError(`Valve answered ${res.status} without its error body.`, res.status);
  const { code, message, requestId } = error;
  if (admin && res.status === 401) {
    signedOut(wrongTokenMessage);
    throw new ConsoleError(wrongTokenMessage, 401, code, requestId);
  }
  throw new ConsoleError(message, res.status, code, requestId);
}

/** The answer as the contract types it, once it is an object with each of `members`. */
function shaped<T>(json: unknown, members: readonly string[], path: string): T {
  const ok =
    json !== null && typeof json === 'object' && !Array.isArray(json) && members.every((m) => m in json);
  if (!ok) throw new ConsoleError(`Valve answered ${path} in a shape this console does not know.`, 200);
  return json as T;
}

export async function adminGet<T>(path: string, members: readonly string[]): Promise<T> {
  return shaped<T>(await send('GET', path, undefined, true), members, path);
}

export async function adminSend<T>(
  method: 'POST' | 'PUT' | 'DELETE',
  path: string,
  body: unknown,
  members: readonly string[],
): Promise<T> {
  return shaped<T>(await send(method, path, body, true), members, path);
}

export async function publicGet<T>(path: string, members: readonly string[]): Promise<T> {
  return shaped<T>(await send('GET', path, undefined, false), members, path);
}

/** Every page of a list, following `next` up to `maxPages` pages. */
export async function allPages<T>(
  first: string,
  read: (path: string) => Promise<{ items: T[]; next: string | null }>,
  maxPages = 20,
): Promise<{ items: T[]; complete: boolean }> {
  const items: T[] = [];
  let path: string | null = first;
  for (let page = 0; path !== null && page < maxPages; page++) {
    const answer: { items: T[]; next: string | null } = await read(path);
    items.push(...answer.items);
    path = answer.next === null ? null : `${first}${first.includes('?') ? '&' : '?'}cursor=${answer.next}`;
  }
  return { items, complete: path === null };
}

/** A failure as one line for the page: the message, and Valve's code and request id when it gave them. */
export function describeFailure(error: unknown): string {
  if (!(error instanceof ConsoleError)) return `Something went wrong in this page: ${String(error)}`;
  const ids = [error.code, error.requestId && `request ${error.requestId}`].filter(Boolean).join(', ');
  return ids === '' ? error.message : `${error.message} (${ids})`;
}
