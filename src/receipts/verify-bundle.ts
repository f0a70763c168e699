import {
  type DisclosureBundle,
  disclosureBundleSchema,
  type FieldReport,
  isOpenName,
  type Verdict,
  type VerifyCheck,
  type VerifyReport,
} from '../contracts/receipt-bodies';
import { RECEIPT_TYP_V1, TENANT_FIELD } from '../contracts/receipt-field-names';
import type { TrustRoot } from '../contracts/trust-root';
import { decodeBase64Url, encodeBase64 } from '../encoding/base64';
import type { Bytes } from '../encoding/bytes';
import { verifyCheckpoint } from '../log/checkpoint';
import { checkWitnessPolicy, type WitnessPolicy } from '../log/cosignature';
import { entryHash, leafHash, verifyInclusion } from '../log/merkle';
import { parseTlogProof } from '../log/tlog-proof';
import { deriveFieldKey, matchesCommitment } from './commitments';
import { findIJsonProblems } from './i-json';
import type { JsonValue } from './jcs';
import { verifyReceiptJws } from './jws';
import { checkReceiptBody, type ReceiptBody } from './receipt-body';

// The one verification of a disclosure bundle, shared by the CLI, the browser page and
// POST /v1/receipts/verify: the JWS, the payload, each opened field or item, the tenant when the
// auditor names one, and the log proof. Consistency with a checkpoint the auditor already holds
// needs the auditor's memory and is added by verify-held.ts.

export interface VerifyOptions {
  /** The tenant the auditor expects the receipt to be issued to (v2 receipts commit to it). */
  tenant?: string;
  /** "At least `quorum` of these witnesses cosigned the proof's checkpoint" (c2sp.org/tlog-cosignature). */
  witnesses?: WitnessPolicy;
}

/** ok, and the verdict: a fork, any fault found, or only checks that could not be run. */
export function verdictOf(checks: readonly VerifyCheck[], forked: boolean): Verdict {
  if (forked) return 'fork';
  const failed = checks.filter((c) => !c.ok);
  if (checks.length > 0 && failed.length === 0) return 'verified';
  return failed.length > 0 && failed.every((c) => c.unchecked === true) ? 'could not check' : 'not verified';
}

function report(checks: VerifyCheck[], parts: Partial<VerifyReport> = {}): VerifyReport {
  const verdict = verdictOf(checks, false);
  return {
    ok: verdict === 'verified',
    verdict,
    typ: null,
    receiptId: null,
    issuer: null,
    issuedAt: null,
    kid: null,
    log: null,
    fields: [],
    checks,
    ...parts,
  };
}

/**
 * The first name `open` holds that no receipt has, read from the input itself: zod's record skips a
 * `__proto__` member (its guard against prototype pollution) that JSON.parse keeps as an ordinary
 * one, so the parsed bundle alone would verify without a word about it.
 */
function unknownOpenName(input: unknown): string | undefined {
  if (typeof input !== 'object' || input === null || !Object.hasOwn(input, 'open')) return undefined;
  const open: unknown = (input as { open: unknown }).open;
  if (typeof open !== 'object' || open === null || Array.isArray(open)) return undefined;
  return Object.keys(open).find((name) => !isOpenName(name));
}

function checkFormat(input: unknown): { bundle: DisclosureBundle } | { problem: string } {
  const unknown = unknownOpenName(input);
  if (unknown !== undefined) {
    return { problem: `open names ${JSON.stringify(unknown)}, which is not a receipt field or item` };
  }
  const parsed = disclosureBundleSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return {
      problem: `bundle is not { jws, proof, salt?, open }: ${issue?.path.join('.')} ${issue?.message}`,
    };
  }
  const bundle = parsed.data;
  for (const [field, opened] of Object.entries(bundle.open)) {
    if (!('value' in opened)) return { problem: `open.${field} has no value` };
    if (findIJsonProblems(opened.value).length > 0) return { problem: `open.${field}.value is not I-JSON` };
    if (opened.key === undefined && bundle.salt === undefined) {
      return { problem: `open.${field} has no key and the bundle has no salt` };
    }
    if (opened.key !== undefined && decodeBase64Url(opened.key)?.length !== 32) {
      return { problem: `open.${field}.key is not a base64url 32-byte key` };
    }
  }
  return { bundle };
}

async function keyFor(bundle: DisclosureBundle, body: ReceiptBody, name: string): Promise<Bytes | null> {
  const key = bundle.open[name]?.key;
  if (key !== undefined) return decodeBase64Url(key) as Bytes;
  return bundle.salt === undefined ? null : deriveFieldKey(bundle.salt, body.rid, name);
}

async function checkFields(
  bundle: DisclosureBundle,
  body: ReceiptBody,
  names: readonly string[],
  checks: VerifyCheck[],
) {
  const fields: FieldReport[] = [];
  for (const field of names) {
    const opened = bundle.open[field];
    if (opened === undefined) {
      fields.push({ field, status: 'committed, not disclosed' });
      continue;
    }
    const key = (await keyFor(bundle, body, field)) as Bytes;
    const commitment = decodeBase64Url(body.cmt[field] as string) as Bytes;
    const ok = await matchesCommitment(commitment, key, field, opened.value as JsonValue);
    const how = opened.key !== undefined ? 'with its key' : 'with the salt';
    checks.push(
      ok
        ? { check: `open.${field}`, ok, detail: `value opens C_${field} ${how}` }
        : { check: `open.${field}`, ok, detail: `value does not open C_${field} ${how}` },
    );
    fields.push(ok ? { field, status: 'verified', value: opened.value } : { field, status: 'failed' });
  }
  for (const field of Object.keys(bundle.open).filter((name) => !names.includes(name))) {
    checks.push({
      check: `open.${field}`,
      ok: false,
      detail: `this ${body.typ} receipt commits to no ${field}`,
    });
  }
  return fields;
}

async function checkTenant(
  bundle: DisclosureBundle,
  body: ReceiptBody,
  tenant: string,
): Promise<VerifyCheck> {
  if (body.typ === RECEIPT_TYP_V1) {
    return { check: 'tenant', ok: false, detail: 'a valve-receipt/v1 receipt does not commit to its tenant' };
  }
  const key = await keyFor(bundle, body, TENANT_FIELD);
  if (key === null) {
    return {
      check: 'tenant',
      ok: false,
      unchecked: true,
      detail: `needs the salt or the key of ${TENANT_FIELD} to check tenant ${JSON.stringify(tenant)}`,
    };
  }
  const commitment = decodeBase64Url(body.cmt[TENANT_FIELD] as string) as Bytes;
  return (await matchesCommitment(commitment, key, TENANT_FIELD, tenant))
    ? { check: 'tenant', ok: true, detail: `issued to tenant ${JSON.stringify(tenant)}` }
    : { check: 'tenant', ok: false, detail: `not issued to tenant ${JSON.stringify(tenant)}` };
}

async function checkProof(
  proofText: string,
  payload: Bytes,
  trustRoot: TrustRoot,
  checks: VerifyCheck[],
  witnesses: WitnessPolicy | undefined,
) {
  const proof = parseTlogProof(proofText);
  if (!proof.ok) {
    checks.push({ check: 'proof.format', ok: false, detail: proof.reason });
    return null;
  }
  checks.push({ check: 'proof.format', ok: true });
  const origin = proof.value.checkpoint.split('\n', 1)[0] ?? '';
  const pinned = trustRoot.logs.find((log) => log.origin === origin);
  if (pinned === undefined) {
    checks.push({ check: 'log.checkpoint', ok: false, detail: `log ${origin} is not in the trust root` });
    return null;
  }
  const checkpoint = await verifyCheckpoint(proof.value.checkpoint, pinned);
  if (!checkpoint.ok) {
    checks.push({ check: 'log.checkpoint', ok: false, detail: checkpoint.reason });
    return null;
  }
  const { size, root } = checkpoint.value;
  checks.push({
    check: 'log.checkpoint',
    ok: true,
    detail: `${origin} at size ${size}, signed by the pinned key`,
  });
  const cosigned =
    witnesses === undefined ? undefined : await checkWitnessPolicy(proof.value.checkpoint, witnesses);
  if (cosigned !== undefined)
    checks.push({ check: 'log.witnesses', ok: cosigned.ok, detail: cosigned.detail });
  const leaf = leafHash(entryHash(payload));
  const included = verifyInclusion(leaf, proof.value.index, size, proof.value.path, root);
  checks.push(
    included.ok
      ? { check: 'log.inclusion', ok: true, detail: `entry ${proof.value.index} of ${size}` }
      : { check: 'log.inclusion', ok: false, detail: included.reason },
  );
  return {
    origin,
    index: proof.value.index,
    treeSize: size,
    rootHash: encodeBase64(root),
    checkpoint: proof.value.checkpoint,
    ...(cosigned === undefined ? {} : { cosignedBy: cosigned.cosignedBy }),
  };
}

/** Verifies a disclosure bundle against a pinned trust root, with no network. */
export async function verifyBundle(
  input: unknown,
  trustRoot: TrustRoot,
  options: VerifyOptions = {},
): Promise<VerifyReport> {
  const format = checkFormat(input);
  if ('problem' in format) return report([{ check: 'bundle.format', ok: false, detail: format.problem }]);
  const { bundle } = format;
  const checks: VerifyCheck[] = [{ check: 'bundle.format', ok: true }];
  const jws = await verifyReceiptJws(bundle.jws, trustRoot.receiptKeys);
  checks.push(...jws.checks);
  if (!jws.ok) return report(checks);
  const checked = checkReceiptBody(jws.body);
  if (!checked.ok) throw new TypeError(`verifyReceiptJws passed an invalid body: ${checked.reason}`);
  const { body, names } = checked.value;
  const parts = { typ: body.typ, receiptId: body.rid, issuer: body.iss, issuedAt: body.iat, kid: jws.kid };
  checks.push(
    body.iss === trustRoot.issuer
      ? { check: 'payload.issuer', ok: true, detail: body.iss }
      : { check: 'payload.issuer', ok: false, detail: `iss ${body.iss} is not ${trustRoot.issuer}` },
  );
  const fields = await checkFields(bundle, body, names, checks);
  if (options.tenant !== undefined) checks.push(await checkTenant(bundle, body, options.tenant));
  const log = await checkProof(bundle.proof, jws.payload, trustRoot, checks, options.witnesses);
  return report(checks, { ...parts, fields, log });
}
