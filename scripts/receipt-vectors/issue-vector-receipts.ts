import type { ReasonRequest } from '../../src/contracts/reason-request';
import {
  type ReasonResponse,
  reasonResponseSchema,
  type UnsignedResponse,
} from '../../src/contracts/reason-response';
import { RECEIPT_FIELDS_V1, RECEIPT_TYP_V1 } from '../../src/contracts/receipt-field-names';
import type { TrustRoot } from '../../src/contracts/trust-root';
import { decodeBase64Url } from '../../src/encoding/base64';
import { utf8 } from '../../src/encoding/utf8';
import { issueReceipt } from '../../src/issuance/issue-receipt';
import { entryHash } from '../../src/log/merkle';
import { createNoteSigner, formatVerifierKey, type NoteSigner } from '../../src/log/signed-note';
import { commitAll, type FieldValues } from '../../src/receipts/commitments';
import { canonicalJson, type JsonValue } from '../../src/receipts/jcs';
import { signReceipt } from '../../src/receipts/jws';
import { buildReceiptBody } from '../../src/receipts/receipt-body';
import { receiptFieldValues, receiptValuesV2 } from '../../src/receipts/receipt-fields';
import {
  type Ed25519SigningKey,
  ed25519Pkcs8FromSeed,
  importEd25519SigningKey,
} from '../../src/signing/keys';
import {
  FIRST_IAT,
  fillerRequest,
  fillerResponse,
  ISSUER,
  KEY_NAMES,
  LOG_ORIGIN,
  mainRequest,
  mainResponse,
  RIDS,
  seedOf,
  TENANT,
  v1Request,
  v1Response,
} from './vector-fixtures';
import { VectorLog } from './vector-log';

// The receipts of the vectors, issued by Valve's own code into one log, in this order:
//   0 a v2 receipt   1 the v1 receipt   2 the main v2 receipt   3, 4 two more v2 receipts
// and a second history of the same log, signed by the same key, in which entry 1 is another receipt:
// the evidence of a fork.

export interface Issued {
  request: ReasonRequest;
  /** The answer as the caller received it, receipt included. */
  response: ReasonResponse;
  salt: string;
  rid: string;
  jws: string;
  /** The log index, and the size of the checkpoint its answer's proof ends in. */
  index: number;
  size: number;
  names: string[];
  values: FieldValues;
  /** The tenant a v2 receipt commits to; v1 commits to none. */
  tenant: string | null;
}

export interface VectorKeys {
  receipt: Ed25519SigningKey;
  unknownReceipt: Ed25519SigningKey;
  log: NoteSigner;
  unknownLog: NoteSigner;
}

export interface IssuedLog {
  keys: VectorKeys;
  trustRoot: TrustRoot;
  honest: VectorLog;
  forked: VectorLog;
  v1: Issued;
  main: Issued;
}

const pkcs8Of = (name: string) => ed25519Pkcs8FromSeed(seedOf(name));

async function vectorKeys(): Promise<VectorKeys> {
  return {
    receipt: await importEd25519SigningKey(pkcs8Of(KEY_NAMES.receipt)),
    unknownReceipt: await importEd25519SigningKey(pkcs8Of(KEY_NAMES.unknownReceipt)),
    // A log's note key is named by its origin; the unknown key takes the same name, so only the key differs.
    log: await createNoteSigner(LOG_ORIGIN, pkcs8Of(KEY_NAMES.log)),
    unknownLog: await createNoteSigner(LOG_ORIGIN, pkcs8Of(KEY_NAMES.unknownLog)),
  };
}

/** The trust root GET /v1/trust-root answers for this deployment (as receipts/service-keys.ts builds it). */
export function trustRootOf(keys: VectorKeys): TrustRoot {
  return {
    issuer: ISSUER,
    receiptKeys: [{ kid: keys.receipt.kid, jwk: keys.receipt.publicJwk, validFrom: 0, validUntil: null }],
    logs: [{ origin: LOG_ORIGIN, verifierKey: formatVerifierKey(LOG_ORIGIN, keys.log.publicKey) }],
  };
}

function answered(unsigned: UnsignedResponse, receipt: ReasonResponse['receipt']): ReasonResponse {
  const response = { ...unsigned, receipt };
  reasonResponseSchema.parse(response);
  return response;
}

async function issueV2(
  keys: VectorKeys,
  log: VectorLog,
  request: ReasonRequest,
  unsigned: UnsignedResponse,
  iat: number,
): Promise<Issued> {
  const issued = await issueReceipt(request, unsigned, {
    signingKey: keys.receipt,
    issuer: ISSUER,
    tenant: TENANT,
    now: () => iat,
    appendToLog: (entry) => log.append(entry),
  });
  const { names, values } = receiptValuesV2(request, unsigned, TENANT);
  return {
    request,
    response: answered(unsigned, issued.receipt),
    salt: issued.salt,
    rid: issued.rid,
    jws: issued.receipt.jws,
    index: issued.logIndex,
    size: log.size,
    names,
    values,
    tenant: TENANT,
  };
}

/** A valve-receipt/v1 receipt as Valve issued them before v2: twelve fields, no tenant, no items. */
async function issueV1(
  keys: VectorKeys,
  log: VectorLog,
  request: ReasonRequest,
  unsigned: UnsignedResponse,
  iat: number,
): Promise<Issued> {
  const salt = request.receiptSalt as string;
  const values = receiptFieldValues(request, unsigned);
  const cmt = await commitAll(salt, unsigned.receiptId, values);
  const body = buildReceiptBody({ typ: RECEIPT_TYP_V1, rid: unsigned.receiptId, iss: ISSUER, iat, cmt });
  const jws = await signReceipt(body, keys.receipt);
  const { index, proof } = await log.append(entryHash(utf8(canonicalJson(body as unknown as JsonValue))));
  return {
    request,
    response: answered(unsigned, { jws, proof }),
    salt,
    rid: unsigned.receiptId,
    jws,
    index,
    size: log.size,
    names: [...RECEIPT_FIELDS_V1],
    values,
    tenant: null,
  };
}

export async function issueVectorLog(): Promise<IssuedLog> {
  const keys = await vectorKeys();
  const honest = new VectorLog(LOG_ORIGIN, keys.log);
  const iat = (n: number) => FIRST_IAT + n * 1000;
  const first = await issueV2(
    keys,
    honest,
    fillerRequest(RIDS.filler0, 0),
    fillerResponse(RIDS.filler0),
    iat(0),
  );
  const v1 = await issueV1(keys, honest, v1Request, v1Response('A printer is on fire.'), iat(1));
  const main = await issueV2(keys, honest, mainRequest, mainResponse, iat(2));
  await issueV2(keys, honest, fillerRequest(RIDS.filler3, 3), fillerResponse(RIDS.filler3), iat(3));
  await issueV2(keys, honest, fillerRequest(RIDS.filler4, 4), fillerResponse(RIDS.filler4), iat(4));

  // The other history: the same first and third entries, and in between a receipt that says the
  // printer was fine, signed by the same log key at the same size.
  const forked = new VectorLog(LOG_ORIGIN, keys.log);
  const scratch = new VectorLog(LOG_ORIGIN, keys.log);
  const rewritten = await issueV1(
    keys,
    scratch,
    { ...v1Request, receiptId: RIDS.rewritten },
    { ...v1Response('Nothing happened.'), receiptId: RIDS.rewritten },
    iat(1),
  );
  for (const jws of [first.jws, rewritten.jws, main.jws]) await forked.append(entryOfJws(jws));
  return { keys, trustRoot: trustRootOf(keys), honest, forked, v1, main };
}

/** The log entry of a receipt: SHA-256("valve-receipt/v1/entry" || 0x00 || payload bytes). */
export function entryOfJws(jws: string): Uint8Array {
  const payload = decodeBase64Url(jws.split('.')[1] ?? '');
  if (payload === null) throw new TypeError('the JWS payload is not base64url');
  return entryHash(payload);
}
