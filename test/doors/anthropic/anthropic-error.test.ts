import { describe, expect, it } from 'vitest';
import { anthropicErrorOf } from '../../../src/doors/anthropic/anthropic-error';
import { ApiError } from '../../../src/errors';

// Valve's errors in Anthropic's shape, at the statuses its SDKs map to their classes and retry on.

const cases: [string, number, string][] = [
  ['request.invalid', 400, 'invalid_request_error'],
  ['auth.missing_key', 401, 'authentication_error'],
  ['auth.forbidden', 403, 'permission_error'],
  ['request.not_found', 404, 'not_found_error'],
  ['request.too_large', 413, 'request_too_large'],
  ['limit.rate_limited', 429, 'rate_limit_error'],
  ['limit.budget_exhausted', 402, 'billing_error'],
  ['policy.no_eligible_model', 400, 'invalid_request_error'],
  ['model.overloaded', 529, 'overloaded_error'],
  ['policy.models_unavailable', 529, 'overloaded_error'],
  ['model.timeout', 504, 'timeout_error'],
  ['model.server', 502, 'api_error'],
  ['internal.error', 500, 'api_error'],
];

describe('anthropicErrorOf', () => {
  for (const [code, status, type] of cases) {
    it(`answers ${code} as ${status} ${type}`, () => {
      const rendered = anthropicErrorOf(new ApiError(code, 'Why.'), 'req-1');
      expect(rendered.status).toBe(status);
      expect(rendered.body).toMatchObject({
        type: 'error',
        error: { type, message: 'Why.' },
        request_id: 'req-1',
      });
      expect(rendered.body.valve).toMatchObject({ code });
    });
  }

  it('says a too-long input as Anthropic does, so Claude Code compacts', () => {
    const rendered = anthropicErrorOf(new ApiError('model.context_overflow', 'input over the window'), 'r');
    expect(rendered.status).toBe(400);
    expect(rendered.body.error.message).toBe('prompt is too long: input over the window');
  });

  it('tells the SDK not to retry an error a retry cannot fix', () => {
    expect(anthropicErrorOf(new ApiError('request.invalid', 'x'), 'r').headers['x-should-retry']).toBe(
      'false',
    );
    expect(
      anthropicErrorOf(new ApiError('model.overloaded', 'x'), 'r').headers['x-should-retry'],
    ).toBeUndefined();
  });
});
