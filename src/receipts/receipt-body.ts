import {
  checkCommittedNames,
  RECEIPT_TYP_V1,
  RECEIPT_TYP_V2,
  type ReceiptTyp,
} from '../contracts/receipt-field-names';
import { decodeBase64Url } from '../encoding/base64';
import { type CheckResult, fail, pass } from '../encoding/check-result';
import type { Commitments } from './commitments';
import { isCanonicalUuid } from './uuid';

// The signed receipt body holds no content: `{ typ, rid, iss, iat, cmt }`, iat in epoch milliseconds.
// Valve issues v2; v1 bodies (twelve fields, no tenant, one commitment per list) still verify.

export const RECEIPT_TYP = RECEIPT_TYP_V2;

export interface ReceiptBody {
  typ: ReceiptTyp;
  rid: string;
  /** The service origin that issued the receipt. */
  iss: string;
  /** Issue time, milliseconds since the epoch. */
  iat: number;
  cmt: Commitments;
}

/** A checked body and its committed names in report order. */
export interface CheckedReceiptBody {
  body: ReceiptBody;
  names: string[];
}

const BODY_MEMBERS = ['cmt', 'iat', 'iss', 'rid', 'typ'];

function isPlainRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function sameMembers(record: Record<string, unknown>, expected: readonly string[]): boolean {
  const keys = Object.keys(record).sort();
  return keys.length === expected.length && [...expected].sort().every((k, i) => keys[i] === k);
}

/** Checks a parsed body: exactly the five members, a known typ, a canonical UUID, exactly its version's names. */
export function checkReceiptBody(value: unknown): CheckResult<CheckedReceiptBody> {
  if (!isPlainRecord(value)) return fail('body is not an object');
  if (!sameMembers(value, BODY_MEMBERS)) return fail('body members are not exactly typ, rid, iss, iat, cmt');
  const { typ, rid, iss, iat, cmt } = value;
  if (typ !== RECEIPT_TYP_V1 && typ !== RECEIPT_TYP_V2) {
    return fail(`typ is neither ${RECEIPT_TYP_V2} nor ${RECEIPT_TYP_V1}`);
  }
  if (typeof rid !== 'string' || !isCanonicalUuid(rid)) return fail('rid is not a lowercase canonical UUID');
  if (typeof iss !== 'string' || iss.length === 0) return fail('iss is not a non-empty string');
  if (typeof iat !== 'number' || !Number.isSafeInteger(iat) || iat < 0) {
    return fail('iat is not a non-negative integer of milliseconds');
  }
  if (!isPlainRecord(cmt)) return fail('cmt is not an object');
  const names = checkCommittedNames(typ, Object.keys(cmt));
  if (!names.ok) return names;
  for (const name of names.value) {
    const c = cmt[name];
    if (typeof c !== 'string' || decodeBase64Url(c)?.length !== 32) {
      return fail(`cmt.${name} is not a base64url 32-byte commitment`);
    }
  }
  return pass({ body: { typ, rid, iss, iat, cmt: cmt as Commitments }, names: names.value });
}

export function validateReceiptBody(value: unknown): CheckResult<ReceiptBody> {
  const checked = checkReceiptBody(value);
  return checked.ok ? pass(checked.value.body) : checked;
}

/**
 * Builds a body from its parts (v2 unless told). The scalar parts are checked (an invalid one is a
 * caller's bug and throws a TypeError); `cmt` is not decoded again: its names come from
 * `committedNames` and its values from `encodeBase64Url` of 32-byte HMACs, and re-checking what was
 * just encoded cost every request a decode per commitment. The tests check that what the issuer builds
 * passes `validateReceiptBody`, which keeps guarding every body Valve reads.
 */
export function buildReceiptBody(parts: {
  typ?: ReceiptTyp;
  rid: string;
  iss: string;
  iat: number;
  cmt: Commitments;
}): ReceiptBody {
  const typ = parts.typ ?? RECEIPT_TYP;
  const { rid, iss, iat, cmt } = parts;
  if (!isCanonicalUuid(rid))
    throw new TypeError('invalid receipt body: rid is not a lowercase canonical UUID');
  if (iss.length === 0) throw new TypeError('invalid receipt body: iss is empty');
  if (!Number.isSafeInteger(iat) || iat < 0) throw new TypeError('invalid receipt body: iat is not a time');
  return { typ, rid, iss, iat, cmt };
}
