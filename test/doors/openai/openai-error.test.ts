import { describe, expect, it } from 'vitest';
import { openaiParamOf } from '../../../src/doors/invalid-param';
import { openaiErrorOf } from '../../../src/doors/openai/openai-error';
import { ApiError } from '../../../src/errors';

describe('openaiErrorOf', () => {
  it('keeps a retryable rate limit retryable, with retry-after-ms beside Retry-After', () => {
    const error = new ApiError('limit.rate_limited', 'slow down', { headers: { 'Retry-After': '3' } });
    // Without the limiter's exact wait, the header's seconds.
    const rendered = openaiErrorOf(error, 'r');
    expect(rendered.status).toBe(429);
    expect(rendered.body.error).toEqual({
      message: 'slow down',
      type: 'rate_limit_error',
      param: null,
      code: 'rate_limit_exceeded',
    });
    expect(rendered.headers).toEqual({ 'Retry-After': '3', 'retry-after-ms': '3000' });
  });

  it('turns a provider’s retry_after_ms into retry-after-ms and retry-after', () => {
    const error = new ApiError('model.rate_limited', 'busy', {
      details: { kind: 'rate_limited', retry_after_ms: 1500 },
    });
    expect(openaiErrorOf(error, 'r').headers).toEqual({ 'retry-after-ms': '1500', 'retry-after': '2' });
  });

  it('says x-should-retry: false for a 5xx a retry cannot fix', () => {
    for (const code of ['model.auth', 'model.quota_exhausted', 'model.permission']) {
      const rendered = openaiErrorOf(new ApiError(code, 'no'), 'r');
      expect(rendered.status).toBeGreaterThanOrEqual(500);
      expect(rendered.headers['x-should-retry']).toBe('false');
    }
  });

  it('says x-should-retry: false when the attempts already spent money, even for a retryable kind', () => {
    const details = { decision: { attempts: [{ costUsd: 0.002 }] } };
    expect(
      openaiErrorOf(new ApiError('model.invalid_response', 'bad', { details }), 'r').headers[
        'x-should-retry'
      ],
    ).toBe('false');
    expect(
      openaiErrorOf(new ApiError('model.invalid_response', 'bad'), 'r').headers['x-should-retry'],
    ).toBeUndefined();
  });

  it('answers a tenant out of budget as OpenAI’s 429 insufficient_quota, never retried', () => {
    const rendered = openaiErrorOf(new ApiError('limit.budget_exhausted', 'spent'), 'r');
    expect(rendered.status).toBe(429);
    expect(rendered.body.error).toMatchObject({ type: 'insufficient_quota', code: 'insufficient_quota' });
    expect(rendered.headers['x-should-retry']).toBe('false');
  });

  it('maps the other statuses to the types the SDKs expect', () => {
    const type = (code: string) => openaiErrorOf(new ApiError(code, 'x'), 'r').body.error.type;
    expect(type('auth.invalid_key')).toBe('authentication_error');
    expect(type('auth.forbidden')).toBe('permission_error');
    expect(type('receipt.conflict')).toBe('conflict_error');
    expect(type('policy.no_eligible_model')).toBe('invalid_request_error');
    expect(type('internal.error')).toBe('server_error');
  });

  const tooSmall = {
    provider: 'sim',
    model: 'fast',
    reason: 'context_window',
    detail: 'about 60103 input tokens and a useful answer do not fit its 32000-token window',
  };
  const noEligible = (excluded: object[]) =>
    new ApiError('policy.no_eligible_model', 'No model in the catalog satisfies this request’s policy.', {
      details: { excluded },
    });

  it('answers an input that fits no window as OpenAI’s 400 context_length_exceeded, naming each window', () => {
    const rendered = openaiErrorOf(
      noEligible([
        tooSmall,
        { provider: 'sim', model: 'deep', reason: 'pinned', detail: 'not the pinned model' },
        { provider: 'openai', model: 'gpt', reason: 'not_configured', detail: 'no key' },
      ]),
      'r',
    );
    expect(rendered.status).toBe(400);
    expect(rendered.body.error).toEqual({
      message:
        'Input tokens exceed the configured limit of every model that could serve this request (sim/fast: about 60103 input tokens and a useful answer do not fit its 32000-token window). Please reduce the length of the messages.',
      type: 'invalid_request_error',
      param: null,
      code: 'context_length_exceeded',
    });
    expect(rendered.headers['x-should-retry']).toBe('false');
    // Valve's own error stays beside it for the trace.
    expect(rendered.body.valve.code).toBe('policy.no_eligible_model');
  });

  it('answers a provider’s context overflow as 400 context_length_exceeded', () => {
    const rendered = openaiErrorOf(new ApiError('model.context_overflow', 'The prompt is too long.'), 'r');
    expect(rendered.status).toBe(400);
    expect(rendered.body.error.code).toBe('context_length_exceeded');
    expect(rendered.body.error.message).toContain('(The prompt is too long.)');
  });

  it('keeps 422 no_eligible_model when a model was also kept out for a reason a shorter input would not fix', () => {
    for (const reason of ['region', 'privacy', 'capability', 'cost', 'latency']) {
      const rendered = openaiErrorOf(
        noEligible([tooSmall, { provider: 'sim', model: 'deep', reason, detail: 'no' }]),
        'r',
      );
      expect(rendered.status).toBe(422);
      expect(rendered.body.error.code).toBe('policy.no_eligible_model');
    }
    expect(openaiErrorOf(noEligible([]), 'r').status).toBe(422);
  });

  it('spells a JSON pointer as an OpenAI param', () => {
    expect(openaiParamOf('/messages/0/content/1')).toBe('messages[0].content[1]');
    expect(openaiParamOf('/valve/modelPolicy/prefer')).toBe('valve.modelPolicy.prefer');
    expect(openaiParamOf('/tool_choice/function/name')).toBe('tool_choice.function.name');
    expect(openaiParamOf('')).toBeNull();
  });
});
