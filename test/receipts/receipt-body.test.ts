import { describe, expect, it } from 'vitest';
import { buildReceiptBody, validateReceiptBody } from '../../src/receipts/receipt-body';
import { EXPECTED_CMT, KAT_IAT, KAT_ISS, RID } from './known-answers';

const body = { typ: 'valve-receipt/v1', rid: RID, iss: KAT_ISS, iat: KAT_IAT, cmt: EXPECTED_CMT };

describe('receipt body', () => {
  it('builds the five-member body', () => {
    expect(
      buildReceiptBody({ typ: 'valve-receipt/v1', rid: RID, iss: KAT_ISS, iat: KAT_IAT, cmt: EXPECTED_CMT }),
    ).toEqual(body);
  });

  it('accepts a v2 body: the v1 fields, the tenant, and items numbered from 0', () => {
    const c = EXPECTED_CMT['req.task'];
    const cmt = {
      ...EXPECTED_CMT,
      'req.tenant': c,
      'req.context[0]': c,
      'req.context[1]': c,
      'req.conversation[0]': c,
    };
    const v2 = { ...body, typ: 'valve-receipt/v2', cmt };
    expect(validateReceiptBody(v2)).toEqual({ ok: true, value: v2 });
    expect(buildReceiptBody({ rid: RID, iss: KAT_ISS, iat: KAT_IAT, cmt }).typ).toBe('valve-receipt/v2');
  });

  it.each([
    ['lacks the tenant', { 'req.context[0]': 'x' }, ['req.tenant']],
    ['skips an item number', { 'req.tenant': 'x', 'req.context[1]': 'x' }, []],
    ['numbers an item with a leading zero', { 'req.tenant': 'x', 'req.context[01]': 'x' }, []],
    ['has items of another list', { 'req.tenant': 'x', 'req.tools[0]': 'x' }, []],
  ])('rejects a v2 body whose cmt %s', (_, extra, drop) => {
    const c = EXPECTED_CMT['req.task'];
    const cmt: Record<string, string> = { ...EXPECTED_CMT };
    for (const [name] of Object.entries(extra)) cmt[name] = c;
    for (const name of drop) delete cmt[name];
    expect(validateReceiptBody({ ...body, typ: 'valve-receipt/v2', cmt }).ok).toBe(false);
  });

  it('rejects a v1 body with v2 names', () => {
    const cmt = { ...EXPECTED_CMT, 'req.tenant': EXPECTED_CMT['req.task'] };
    expect(validateReceiptBody({ ...body, cmt }).ok).toBe(false);
  });

  it('accepts a well-formed body', () => {
    expect(validateReceiptBody(body)).toEqual({ ok: true, value: body });
  });

  it.each([
    ['a member is missing', { typ: body.typ, rid: RID, iss: KAT_ISS, iat: KAT_IAT }],
    ['a member is added', { ...body, sub: 'tenant' }],
    ['typ is an unknown version', { ...body, typ: 'valve-receipt/v3' }],
    ['typ is v2 with only the v1 fields', { ...body, typ: 'valve-receipt/v2' }],
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
