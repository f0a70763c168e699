import { describe, expect, it } from 'vitest';
import { call } from '../helpers/api';

describe('GET /health', () => {
  it('answers with status and version, no key needed', async () => {
    const res = await call('/health');
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: 'ok', version: '0.1.0' });
  });

  it('answers other methods with 405 and an Allow header', async () => {
    const res = await call('/health', { method: 'POST' });
    expect(res.status).toBe(405);
    expect(res.headers.get('Allow')).toBe('GET');
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('request.method_not_allowed');
  });
});
