import { describe, expect, it } from 'vitest';
import { errorBodySchema } from '../../src/contracts/error-body';
import { reasonRequestSchema } from '../../src/contracts/reason-request';
import { describeIssues } from '../../src/middleware/json-body';
import { errorValidator, requestValidator, validates } from '../helpers/json-schemas';
import { crossItemSamples, invalidSamples, validSamples } from './reason-request-samples';

describe('the Reason request contract', () => {
  it('has at least 30 valid and 30 invalid samples', () => {
    expect(validSamples.length).toBeGreaterThanOrEqual(30);
    expect(invalidSamples.length).toBeGreaterThanOrEqual(30);
  });

  it.each(validSamples.map((sample, i) => [i, sample]))(
    'accepts valid sample %i in zod and JSON Schema',
    (_, sample) => {
      expect(reasonRequestSchema.safeParse(sample).success).toBe(true);
      expect(validates(requestValidator, sample)).toBe(true);
    },
  );

  it.each(invalidSamples.map((sample, i) => [i, sample]))(
    'rejects invalid sample %i in zod and JSON Schema',
    (_, sample) => {
      expect(reasonRequestSchema.safeParse(sample).success).toBe(false);
      expect(validates(requestValidator, sample)).toBe(false);
    },
  );

  it.each(crossItemSamples)('rejects %s in zod, naming the item', (_, sample, path) => {
    expect(validates(requestValidator, sample)).toBe(true);
    const result = reasonRequestSchema.safeParse(sample);
    expect(result.success).toBe(false);
    expect(result.error && describeIssues(result.error)[0]?.path).toBe(path);
  });
});

describe('the error body contract', () => {
  const body = {
    error: {
      code: 'request.invalid',
      message: 'bad',
      category: 'request',
      retryable: false,
      details: null,
      requestId: 'r1',
    },
  };

  it('agrees on a well-formed body', () => {
    expect(errorBodySchema.safeParse(body).success).toBe(true);
    expect(validates(errorValidator, body)).toBe(true);
  });

  it.each([
    ['a missing requestId', { error: { ...body.error, requestId: undefined } }],
    ['an extra member', { error: { ...body.error, stack: 'x' } }],
    ['a code without a layer', { error: { ...body.error, code: 'invalid' } }],
    ['array details', { error: { ...body.error, details: [] } }],
  ])('agrees on rejecting %s', (_, sample) => {
    const cleaned = JSON.parse(JSON.stringify(sample));
    expect(errorBodySchema.safeParse(cleaned).success).toBe(false);
    expect(validates(errorValidator, cleaned)).toBe(false);
  });
});
