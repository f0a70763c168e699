import { describe, expect, it } from 'vitest';
import { parseDurationMs, parseRetryAfterMs } from '../../../src/providers/shared/retry-after';

const now = Date.parse('2026-05-01T12:00:00Z');

describe('parseRetryAfterMs', () => {
  it('reads Retry-After seconds', () => {
    expect(parseRetryAfterMs(new Headers({ 'retry-after': '3' }), now)).toBe(3000);
  });

  it('reads Retry-After as an HTTP-date relative to now', () => {
    expect(parseRetryAfterMs(new Headers({ 'retry-after': 'Fri, 01 May 2026 12:00:20 GMT' }), now)).toBe(
      20_000,
    );
  });

  it('treats a date in the past as no wait', () => {
    expect(parseRetryAfterMs(new Headers({ 'retry-after': 'Fri, 01 May 2026 11:00:00 GMT' }), now)).toBe(0);
  });

  it('prefers retry-after-ms over Retry-After', () => {
    expect(parseRetryAfterMs(new Headers({ 'retry-after-ms': '250.5', 'retry-after': '9' }), now)).toBe(251);
  });

  it('uses the reset of an exhausted OpenAI bucket when no Retry-After is given', () => {
    const headers = new Headers({
      'x-ratelimit-remaining-requests': '0',
      'x-ratelimit-reset-requests': '1m2s',
      'x-ratelimit-remaining-tokens': '1200',
      'x-ratelimit-reset-tokens': '6ms',
    });
    expect(parseRetryAfterMs(headers, now)).toBe(62_000);
  });

  it('uses the reset instant of an exhausted Anthropic bucket', () => {
    const headers = new Headers({
      'anthropic-ratelimit-tokens-remaining': '0',
      'anthropic-ratelimit-tokens-reset': '2026-05-01T12:00:05Z',
    });
    expect(parseRetryAfterMs(headers, now)).toBe(5000);
  });

  it('gives no hint for garbage or absence, never zero', () => {
    expect(parseRetryAfterMs(new Headers({ 'retry-after': 'soon' }), now)).toBeUndefined();
    expect(parseRetryAfterMs(new Headers(), now)).toBeUndefined();
  });
});

describe('parseDurationMs', () => {
  it.each([
    ['20ms', 20],
    ['1s', 1000],
    ['6m0s', 360_000],
    ['1h2m3.5s', 3_723_500],
    ['34.4s', 34_400],
  ])('reads %s', (text, ms) => {
    expect(parseDurationMs(text)).toBe(ms);
  });

  it('rejects text that is not a whole duration', () => {
    expect(parseDurationMs('5 minutes')).toBeUndefined();
  });
});
