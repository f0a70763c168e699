import { describe, expect, it } from 'vitest';
import { app } from '../../src/app';
import { allowedMethods } from '../../src/routes/method-not-allowed';
import { adminToken, call } from '../helpers/api';

// The 405 answers come from the route table itself, so a route added anywhere gets one.
const served = allowedMethods(app.routes);

describe('methods a path does not serve', () => {
  it('lists every routed path with the methods it answers, in registration order', () => {
    expect(served.get('/health')).toBe('GET');
    expect(served.get('/v1/reason')).toBe('POST');
    expect(served.get('/v1/admin/tenants/:tenant/budget')).toBe('GET, PUT');
    expect(served.get('/v1/receipts/:receiptId')).toBe('GET');
    expect(served.get('/.well-known/jwks.json')).toBe('GET');
    expect([...served.keys()].some((path) => path.includes('*'))).toBe(false);
  });

  it('answers PATCH on every routed path with 405 and the Allow header of that path', async () => {
    expect(served.size).toBeGreaterThan(15);
    for (const [path, allow] of served) {
      const res = await call(path.replace(/:[A-Za-z]+/g, 'x'), {
        method: 'PATCH',
        headers: { Authorization: `Bearer ${adminToken}` },
      });
      expect({ path, status: res.status, allow: res.headers.get('Allow') }).toEqual({
        path,
        status: 405,
        allow,
      });
      // A door answers in its own shape, with Valve's error object as `valve` (the Anthropic door's
      // `error` holds Anthropic's type and message only).
      const body = (await res.json()) as { error: { code?: string }; valve?: { code: string } };
      expect(body.valve?.code ?? body.error.code).toBe('request.method_not_allowed');
    }
  });
});
