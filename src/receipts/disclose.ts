import type { ReasonRequest } from '../contracts/reason-request';
import type { ReasonResponse } from '../contracts/reason-response';
import type { DisclosureBundle } from '../contracts/receipt-bodies';
import { RECEIPT_FIELDS_V1, type ReceiptField } from '../contracts/receipt-field-names';
import { encodeBase64Url } from '../encoding/base64';
import { deriveFieldKey } from './commitments';
import { receiptFieldValues } from './receipt-fields';

// The caller's side of disclosure: from the request it sent, the response it kept and its salt, a
// bundle that opens every field (the salt itself) or only chosen fields (their keys K_f, no salt).

export interface DiscloseInput {
  request: ReasonRequest;
  response: ReasonResponse;
  salt: string;
  /** The fields to open; omitted opens every field by handing over the salt. */
  fields?: readonly ReceiptField[];
}

export async function buildDisclosure(input: DiscloseInput): Promise<DisclosureBundle> {
  const { request, response, salt } = input;
  const receipt = response.receipt;
  if (receipt === undefined) throw new TypeError('the response carries no receipt');
  const values = receiptFieldValues(request, response);
  if (input.fields === undefined) {
    const open = Object.fromEntries(RECEIPT_FIELDS_V1.map((f) => [f, { value: values[f] ?? null }]));
    return { jws: receipt.jws, proof: receipt.proof, salt, open };
  }
  const open: DisclosureBundle['open'] = {};
  for (const field of input.fields) {
    const key = await deriveFieldKey(salt, response.receiptId, field);
    open[field] = { value: values[field] ?? null, key: encodeBase64Url(key) };
  }
  return { jws: receipt.jws, proof: receipt.proof, open };
}
