import { Validator } from '@cfworker/json-schema';
import { describe, expect, it } from 'vitest';
import bundleSchema from '../../schemas/disclosure-bundle.schema.json';
import type { TrustRoot } from '../../src/contracts/trust-root';
import { verifyBundle } from '../../src/receipts/verify-bundle';

// The published JSON Schema of a disclosure bundle and the verifier's own format check agree: what
// the schema accepts passes `bundle.format`, and what it rejects fails it.

const validator = new Validator(bundleSchema as object, '2020-12', false);
const trustRoot: TrustRoot = { issuer: 'https://valve.local', receiptKeys: [], logs: [] };
const salt = 'c2FsdHNhbHRzYWx0c2FsdHNhbHRzYWx0c2FsdHNhbHRzYWx0';
const key = 'A'.repeat(43);
const base = { jws: 'a.b.c', proof: 'c2sp.org/tlog-proof@v1\n' };

const valid: [string, unknown][] = [
  [
    'the salt and every kind of name',
    {
      ...base,
      salt,
      open: { 'req.task': { value: 'x' }, 'req.tenant': { value: 't' }, 'req.context[2]': { value: {} } },
    },
  ],
  [
    'keys only',
    { ...base, open: { 'res.output': { value: null, key }, 'req.conversation[0]': { value: [], key } } },
  ],
  ['nothing opened', { ...base, open: {} }],
];

const invalid: [string, unknown][] = [
  ['no value', { ...base, salt, open: { 'req.task': {} } }],
  ['an unknown field', { ...base, salt, open: { 'req.secret': { value: 1 } } }],
  ['an item of a list without items', { ...base, salt, open: { 'req.tools[0]': { value: 1 } } }],
  ['an item number with a leading zero', { ...base, salt, open: { 'req.context[01]': { value: 1 } } }],
  ['a short key', { ...base, open: { 'req.task': { value: 1, key: 'AAAA' } } }],
  ['neither salt nor key', { ...base, open: { 'req.task': { value: 1 } } }],
  ['a short salt', { ...base, salt: 'short', open: {} }],
  ['an extra member', { ...base, open: {}, note: 'hi' }],
  ['no proof', { jws: 'a.b.c', open: {} }],
];

async function formatPasses(bundle: unknown): Promise<boolean> {
  const report = await verifyBundle(bundle, trustRoot);
  return report.checks[0]?.check === 'bundle.format' && report.checks[0].ok;
}

describe('the disclosure bundle contract', () => {
  it.each(valid)('accepts %s in the JSON Schema and the verifier', async (_, bundle) => {
    expect(validator.validate(bundle).valid).toBe(true);
    expect(await formatPasses(bundle)).toBe(true);
  });

  it.each(invalid)('rejects %s in the JSON Schema and the verifier', async (_, bundle) => {
    expect(validator.validate(bundle).valid).toBe(false);
    expect(await formatPasses(bundle)).toBe(false);
  });
});
