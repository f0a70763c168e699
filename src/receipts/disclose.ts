import type { ReasonRequest } from '../contracts/reason-request';
import type { ReasonResponse } from '../contracts/reason-response';
import type { DisclosureBundle } from '../contracts/receipt-bodies';
import { RECEIPT_FIELDS_V1, RECEIPT_TYP_V1, TENANT_FIELD } from '../contracts/receipt-field-names';
import { decodeBase64Url, encodeBase64Url } from '../encoding/base64';
import { decodeUtf8 } from '../encoding/utf8';
import { deriveFieldKey, type FieldValues } from './commitments';
import { receiptFieldValues, receiptValuesV2 } from './receipt-fields';

// The caller's side of disclosure: from the request it sent, the response it kept and its salt, a
// bundle that opens everything (the salt itself) or only chosen names (their keys K_f, no salt). In
// a v2 receipt a name can be one context item or conversation turn, so one document can be shown
// without the others. The tenant is not in the request or response; it is opened only when given.

export interface DiscloseInput {
  request: ReasonRequest;
  response: ReasonResponse;
  salt: string;
  /** The names to open (fields such as `res.output`, items such as `req.context[2]`); omitted opens all. */
  fields?: readonly string[];
  /** The tenant the receipt was issued to; given, `req.tenant` is opened too. */
  tenant?: string;
}

function receiptTypOf(jws: string): string | undefined {
  const payload = decodeUtf8(decodeBase64Url(jws.split('.')[1] ?? '') ?? new Uint8Array());
  try {
    return (JSON.parse(payload ?? '') as { typ?: string }).typ;
  } catch {
    return undefined;
  }
}

export async function buildDisclosure(input: DiscloseInput): Promise<DisclosureBundle> {
  const { request, response, salt, tenant } = input;
  const receipt = response.receipt;
  if (receipt === undefined) throw new TypeError('the response carries no receipt');
  const v1 = receiptTypOf(receipt.jws) === RECEIPT_TYP_V1;
  if (v1 && tenant !== undefined)
    throw new TypeError('a valve-receipt/v1 receipt does not commit to its tenant');
  const { names, values }: { names: string[]; values: FieldValues } = v1
    ? { names: [...RECEIPT_FIELDS_V1], values: receiptFieldValues(request, response) }
    : receiptValuesV2(request, response, tenant ?? '');
  const openable = tenant === undefined ? names.filter((n) => n !== TENANT_FIELD) : names;
  if (input.fields === undefined) {
    const open = Object.fromEntries(openable.map((f) => [f, { value: values[f] ?? null }]));
    return { jws: receipt.jws, proof: receipt.proof, salt, open };
  }
  const chosen = tenant === undefined ? input.fields : [...new Set([...input.fields, TENANT_FIELD])];
  const unknown = chosen.filter((f) => !openable.includes(f));
  if (unknown.length > 0) {
    const why = unknown.includes(TENANT_FIELD) ? ' (req.tenant needs the tenant)' : '';
    throw new TypeError(`this receipt commits to no ${unknown.join(', ')}${why}`);
  }
  const open: DisclosureBundle['open'] = {};
  for (const field of openable.filter((n) => chosen.includes(n))) {
    const key = await deriveFieldKey(salt, response.receiptId, field);
    open[field] = { value: values[field] ?? null, key: encodeBase64Url(key) };
  }
  return { jws: receipt.jws, proof: receipt.proof, open };
}
