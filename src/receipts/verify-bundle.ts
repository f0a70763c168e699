import {
  type DisclosureBundle,
  disclosureBundleSchema,
  type FieldReport,
  type VerifyCheck,
  type VerifyReport,
} from '../contracts/receipt-bodies';
import { isReceiptField, RECEIPT_FIELDS_V1 } from '../contracts/receipt-field-names';
import type { TrustRoot } from '../contracts/trust-root';
import { decodeBase64Url, encodeBase64 } from '../encoding/base64';
import type { Bytes } from '../encoding/bytes';
import { verifyCheckpoint } from '../log/checkpoint';
import { entryHash, leafHash, verifyInclusion } from '../log/merkle';
import { parseTlogProof } from '../log/tlog-proof';
import { deriveFieldKey, matchesCommitment } from './commitments';
import { findIJsonProblems } from './i-json';
import type { JsonValue } from './jcs';
import { verifyReceiptJws } from './jws';
import type { ReceiptBody } from './receipt-body';

// The disclosure bundle's verification (README "For auditors"), steps 1–4 and 6: the one verification
// the CLI runs offline and POST /v1/receipts/verify runs server-side. Step 5 (consistency with a
// checkpoint the auditor holds) needs the auditor's state and lives in log/compare-checkpoints.ts.

function report(checks: VerifyCheck[], parts: Partial<VerifyReport> = {}): VerifyReport {
  return {
    ok: checks.length > 0 && checks.every((c) => c.ok),
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

function checkFormat(input: unknown): { bundle: DisclosureBundle } | { problem: string } {
  const parsed = disclosureBundleSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return {
      problem: `bundle is not { jws, proof, salt?, open }: ${issue?.path.join('.')} ${issue?.message}`,
    };
  }
  const bundle = parsed.data;
  for (const [field, opened] of Object.entries(bundle.open)) {
    if (!isReceiptField(field)) return { problem: `open.${field} is not a v1 receipt field` };
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

async function checkFields(bundle: DisclosureBundle, body: ReceiptBody, checks: VerifyCheck[]) {
  const fields: FieldReport[] = [];
  for (const field of RECEIPT_FIELDS_V1) {
    const opened = bundle.open[field];
    if (opened === undefined) {
      fields.push({ field, status: 'committed, not disclosed' });
      continue;
    }
    const key =
      opened.key !== undefined
        ? (decodeBase64Url(opened.key) as Bytes)
        : await deriveFieldKey(bundle.salt as string, body.rid, field);
    const commitment = decodeBase64Url(body.cmt[field]) as Bytes;
    const ok = await matchesCommitment(commitment, key, field, opened.value as JsonValue);
    const how = opened.key !== undefined ? 'with the field key' : 'with the salt';
    checks.push(
      ok
        ? { check: `open.${field}`, ok, detail: `value opens C_${field} ${how}` }
        : { check: `open.${field}`, ok, detail: `value does not open C_${field} ${how}` },
    );
    fields.push(ok ? { field, status: 'verified', value: opened.value } : { field, status: 'failed' });
  }
  return fields;
}

async function checkProof(proofText: string, payload: Bytes, trustRoot: TrustRoot, checks: VerifyCheck[]) {
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
  };
}

/** Verifies a disclosure bundle against a pinned trust root, with no network. */
export async function verifyBundle(input: unknown, trustRoot: TrustRoot): Promise<VerifyReport> {
  const format = checkFormat(input);
  if ('problem' in format) return report([{ check: 'bundle.format', ok: false, detail: format.problem }]);
  const { bundle } = format;
  const checks: VerifyCheck[] = [{ check: 'bundle.format', ok: true }];
  const jws = await verifyReceiptJws(bundle.jws, trustRoot.receiptKeys);
  checks.push(...jws.checks);
  if (!jws.ok) return report(checks);
  const { body } = jws;
  const parts = { receiptId: body.rid, issuer: body.iss, issuedAt: body.iat, kid: jws.kid };
  checks.push(
    body.iss === trustRoot.issuer
      ? { check: 'payload.issuer', ok: true, detail: body.iss }
      : { check: 'payload.issuer', ok: false, detail: `iss ${body.iss} is not ${trustRoot.issuer}` },
  );
  const fields = await checkFields(bundle, body, checks);
  const log = await checkProof(bundle.proof, jws.payload, trustRoot, checks);
  return report(checks, { ...parts, fields, log });
}
