import { describe, expect, it } from 'vitest';
import { call, createKey, reason } from '../helpers/api';

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const body = { task: 'summarize', instructions: 'Summarize.' };

describe('request ids', () => {
  it('keep Valve’s own X-Request-Id and echo the client’s id only as X-Correlation-Id', async () => {
    const { key } = await createKey();
    const res = await reason(key, body, { 'X-Request-Id': 'chosen-by-client' });
    expect(res.status).toBe(200);
    expect(res.headers.get('X-Request-Id')).toMatch(uuid);
    expect(res.headers.get('X-Correlation-Id')).toBe('chosen-by-client');
  });

  it('never let a client choose the requestId of an error body', async () => {
    const res = await call('/v1/nowhere', { headers: { 'X-Request-Id': 'victim-request-id' } });
    expect(res.status).toBe(404);
    const { error } = (await res.json()) as { error: { requestId: string } };
    expect(error.requestId).toMatch(uuid);
    expect(error.requestId).toBe(res.headers.get('X-Request-Id'));
    expect(res.headers.get('X-Correlation-Id')).toBe('victim-request-id');
  });

  it('prefer X-Correlation-Id, and reject a malformed one with a 400 naming the header', async () => {
    const both = await call('/health', {
      headers: { 'X-Correlation-Id': 'trace:1', 'X-Request-Id': 'other' },
    });
    expect(both.headers.get('X-Correlation-Id')).toBe('trace:1');
    for (const bad of ['has space', 'x'.repeat(129), '<script>']) {
      const res = await call('/health', { headers: { 'X-Correlation-Id': bad } });
      expect(res.status).toBe(400);
      const { error } = (await res.json()) as { error: { message: string; requestId: string } };
      expect(error.message).toContain('X-Correlation-Id header');
      expect(error.requestId).toMatch(uuid);
    }
  });

  it('never echo a malformed X-Request-Id: a 400 naming the header, with Valve’s own fresh id', async () => {
    const bad = 'req 1 <script>';
    const res = await call('/health', { headers: { 'X-Request-Id': bad } });
    expect(res.status).toBe(400);
    const text = await res.text();
    expect(text).not.toContain(bad);
    expect(text).toContain('X-Request-Id header');
    expect(res.headers.get('X-Correlation-Id')).toBeNull();
    expect(res.headers.get('X-Request-Id')).toMatch(uuid);
  });
});
