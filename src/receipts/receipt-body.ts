import { isReceiptField, RECEIPT_FIELDS_V1 } from '../contracts/receipt-field-names';
import { decodeBase64Url } from '../encoding/base64';
import { type CheckResult, fail, pass } from '../encoding/check-result';
import type { Commitments } from './commitments';
import { isCanonicalUuid } from './uuid';

// The signed receipt body holds no content: `{ typ, rid, iss, iat, cmt }`, iat in epoch milliseconds.

export const RECEIPT_TYP = 'valve-receipt/v1';

export interface ReceiptBody {
  typ: typeof RECEIPT_TYP;
  rid: string;
  /** The service origin that issued the receipt. */
  iss: string;
  /** Issue time, milliseconds since the epoch. */
  iat: number;
  cmt: Commitments;
}

const BODY_MEMBERS = ['cmt', 'iat', 'iss', 'rid', 'typ'];

function isPlainRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function sameMembers(record: Record<string, unknown>, expected: readonly string[]): boolean {
  const keys = Object.keys(record).sort();
  return keys.length === expected.length && [...expected].sort().every((k, i) => keys[i] === k);
}

/** Checks a parsed body: exactly the five members, the v1 typ, a canonical UUID, exactly the v1 fields. */
export function validateReceiptBody(value: unknown): CheckResult<ReceiptBody> {
  if (!isPlainRecord(value)) return fail('body is not an object');
  if (!sameMembers(value, BODY_MEMBERS)) return fail('body members are not exactly typ, rid, iss, iat, cmt');
  const { typ, rid, iss, iat, cmt } = value;
  if (typ !== RECEIPT_TYP) return fail(`typ is not ${RECEIPT_TYP}`);
  if (typeof rid !== 'string' || !isCanonicalUuid(rid)) return fail('rid is not a lowercase canonical UUID');
  if (typeof iss !== 'string' || iss.length === 0) return fail('iss is not a non-empty string');
  if (typeof iat !== 'number' || !Number.isSafeInteger(iat) || iat < 0) {
    return fail('iat is not a non-negative integer of milliseconds');
  }
  if (!isPlainRecord(cmt)) return fail('cmt is not an object');
  const unknown = Object.keys(cmt).filter((k) => !isReceiptField(k));
  if (unknown.length > 0) return fail(`cmt has fields outside v1: ${unknown.join(', ')}`);
  const missing = RECEIPT_FIELDS_V1.filter((f) => !(f in cmt));
  if (missing.length > 0) return fail(`cmt lacks v1 fields: ${missing.join(', ')}`);
  for (const field of RECEIPT_FIELDS_V1) {
    const c = cmt[field];
    if (typeof c !== 'string' || decodeBase64Url(c)?.length !== 32) {
      return fail(`cmt.${field} is not a base64url 32-byte commitment`);
    }
  }
  return pass({ typ, rid, iss, iat, cmt: cmt as Commitments });
}

/** Builds a body from its parts; invalid parts are a caller's bug and throw a TypeError. */
export function buildReceiptBody(parts: {
  rid: string;
  iss: string;
  iat: number;
  cmt: Commitments;
}): ReceiptBody {
  const body = { typ: RECEIPT_TYP, rid: parts.rid, iss: parts.iss, iat: parts.iat, cmt: parts.cmt };
  const checked = validateReceiptBody(body);
  if (!checked.ok) throw new TypeError(`invalid receipt body: ${checked.reason}`);
  return checked.value;
}
