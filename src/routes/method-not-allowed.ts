import { ApiError } from '../errors';

/**
 * The `Allow` value of every routed path, read from the app's own route table (middleware and
 * wildcards left out), so a route added anywhere gets its 405 without restating a list.
 */
export function allowedMethods(routes: readonly { method: string; path: string }[]): Map<string, string> {
  const allowed = new Map<string, string[]>();
  for (const route of routes) {
    if (route.method === 'ALL' || route.path.includes('*')) continue;
    const methods = allowed.get(route.path) ?? [];
    if (!methods.includes(route.method)) methods.push(route.method);
    allowed.set(route.path, methods);
  }
  return new Map([...allowed].map(([path, methods]) => [path, methods.join(', ')]));
}

/** A handler that refuses any method with 405, naming the ones the path answers. */
export function methodNotAllowed(allow: string): () => never {
  return () => {
    throw new ApiError('request.method_not_allowed', `This endpoint answers ${allow} only.`, {
      headers: { Allow: allow },
    });
  };
}
