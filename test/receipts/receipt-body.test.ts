import { describe, expect, it } from 'vitest';
import { buildReceiptBody, validateReceiptBody } from '../../src/receipts/receipt-body';
import { EXPECTED_CMT, KAT_IAT, KAT_ISS, RID } from './known-answers';

const body = { typ: 'valve-receipt/v1', rid: RID, iss: KAT_ISS, iat: KAT_IAT, cmt: EXPECTED_CMT };

describe('receipt body', () => {
  it('builds the five-member body', () => {
    expect(buildReceiptBody({ rid: RID, iss: KAT_ISS, iat: KAT_IAT, cmt: EXPECTED_CMT })).toEqual(body);
  });

  it('accepts a well-formed body', () => {
    expect(validateReceiptBody(body)).toEqual({ ok: true, value: body });
  });

  it.each([
    ['a member is missing', { typ: body.typ, rid: RID, iss: KAT_ISS, iat: KAT_IAT }],
    ['a member is added', { ...body, sub: 'tenant' }],
    ['typ is another version', { ...body, typ: 'valve-receipt/v2' }],
    ['rid is upper case', { ...body, rid: RID.toUpperCase() }],
    ['rid is not a UUID', { ...body, rid: 'receipt-1' }],
    ['iss is empty', { ...body, iss: '' }],
    ['iat is fractional', { ...body, iat: KAT_IAT + 0.5 }],
    ['iat is negative', { ...body, iat: -1 }],
    ['iat is a string', { ...body, iat: String(KAT_IAT) }],
    ['cmt lacks a field', { ...body, cmt: { ...EXPECTED_CMT, 'dec.trace': undefined } }],
    ['cmt has an extra field', { ...body, cmt: { ...EXPECTED_CMT, 'res.secret': EXPECTED_CMT['req.task'] } }],
    [
      'a commitment is 31 bytes',
      { ...body, cmt: { ...EXPECTED_CMT, 'req.task': 'YPRfMFLRM2XdbZMWU5C7cUbtIDYOYRX7KYAj_Obcmg' } },
    ],
    [
      'a commitment is padded base64',
      { ...body, cmt: { ...EXPECTED_CMT, 'req.task': `${EXPECTED_CMT['req.task']}=` } },
    ],
    ['the body is an array', [body]],
  ])('rejects a body where %s', (_, value) => {
    const result = validateReceiptBody(JSON.parse(JSON.stringify(value)));
    expect(result.ok).toBe(false);
  });

  it('refuses to build a body from invalid parts', () => {
    expect(() => buildReceiptBody({ rid: 'x', iss: KAT_ISS, iat: KAT_IAT, cmt: EXPECTED_CMT })).toThrow(
      TypeError,
    );
  });
});
