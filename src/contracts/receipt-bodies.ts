import { z } from 'zod';
import { queryInteger, queryText } from './query-params';
import { receiptSaltPattern, uuidSchema } from './reason-request';
import { ITEM_NAME, isReceiptField, parseItemName, RECEIPT_FIELDS_V2 } from './receipt-field-names';
import { onTheWire } from './wire-schema';

// Bodies of the receipt and log endpoints, and the disclosure bundle an auditor receives.

export const receiptFieldSchema = z.enum(RECEIPT_FIELDS_V2);

/** A name a bundle may open: a v1/v2 field, or one item of a v2 receipt's context or conversation. */
export function isOpenName(name: string): boolean {
  return isReceiptField(name) || parseItemName(name) !== null;
}

const openNameSchema = onTheWire(z.string().refine(isOpenName, 'is not a receipt field or item'), {
  type: 'string',
  anyOf: [{ enum: [...RECEIPT_FIELDS_V2] }, { pattern: ITEM_NAME.source }],
});

/**
 * `{ jws, proof, salt?, open: { "<name>": { value, key? } } }`: a name is a field (`req.task`) or, in
 * a v2 receipt, one item (`req.context[2]`, `req.conversation[0]`).
 */
export const disclosureBundleSchema = z.strictObject({
  jws: z.string(),
  proof: z.string(),
  salt: z.string().regex(receiptSaltPattern).optional(),
  open: z.record(
    openNameSchema,
    z.strictObject({
      value: z.unknown(),
      /** K_f, base64url of 32 bytes; without it the bundle's salt derives it. */
      key: z
        .string()
        .regex(/^[A-Za-z0-9_-]{43}$/, 'is not a base64url 32-byte key')
        .optional(),
    }),
  ),
});
export type DisclosureBundle = z.infer<typeof disclosureBundleSchema>;

/** POST /v1/receipts/verify?tenant=: the tenant a v2 receipt must be issued to. */
export const verifyQuerySchema = z.strictObject({ tenant: queryText().min(1).optional() });

export const verifyCheckSchema = z.strictObject({
  check: z.string(),
  ok: z.boolean(),
  detail: z.string().optional(),
  /** A failed check that could not be run (a proof or key was missing), not one that found a fault. */
  unchecked: z.boolean().optional(),
});
export type VerifyCheck = z.infer<typeof verifyCheckSchema>;

export const fieldReportSchema = z.strictObject({
  /** A field or an item name, as committed. */
  field: z.string(),
  status: z.enum(['verified', 'failed', 'committed, not disclosed']),
  value: z.unknown().optional(),
});
export type FieldReport = z.infer<typeof fieldReportSchema>;

export const consistencyBodySchema = z.strictObject({
  from: z.number().int().min(1),
  to: z.number().int().min(1),
  hashes: z.array(z.string()),
});
export type ConsistencyBody = z.infer<typeof consistencyBodySchema>;

/** What a verifier concludes: a failed check, a fork of the log, or a check it could not run. */
export const verdictSchema = z.enum(['verified', 'not verified', 'fork', 'could not check']);
export type Verdict = z.infer<typeof verdictSchema>;

export const verifyReportSchema = z.strictObject({
  ok: z.boolean(),
  verdict: verdictSchema,
  /** The receipt format version, `valve-receipt/v1` or `/v2`, once the payload is read. */
  typ: z.string().nullable(),
  receiptId: z.string().nullable(),
  issuer: z.string().nullable(),
  issuedAt: z.number().int().nullable(),
  kid: z.string().nullable(),
  log: z
    .strictObject({
      origin: z.string(),
      index: z.number().int().min(0),
      treeSize: z.number().int().min(0),
      rootHash: z.string(),
      checkpoint: z.string(),
      /** With a witness policy: the policy's witnesses that cosigned the checkpoint, and when (seconds). */
      cosignedBy: z
        .array(z.strictObject({ name: z.string(), timestamp: z.number().int().min(0) }))
        .optional(),
    })
    .nullable(),
  fields: z.array(fieldReportSchema),
  checks: z.array(verifyCheckSchema),
  /**
   * Evidence of log misbehaviour (a fork) that only the log could have made: the two signed
   * checkpoints that cannot both be honest, and the consistency proof that shows it when their sizes
   * differ.
   */
  security: z
    .array(
      z.strictObject({
        problem: z.string(),
        checkpoints: z.array(z.string()),
        consistency: consistencyBodySchema.optional(),
      }),
    )
    .optional(),
});
export type VerifyReport = z.infer<typeof verifyReportSchema>;

export const storedReceiptSchema = z.strictObject({
  receiptId: uuidSchema,
  issuedAt: z.number().int(),
  kid: z.string(),
  model: z.strictObject({ provider: z.string(), model: z.string(), region: z.string() }),
  costUsd: z.number().min(0),
  log: z.strictObject({ origin: z.string(), index: z.number().int().min(0) }),
  saltGenerated: z.boolean(),
  jws: z.string(),
  proof: z.string(),
});

export const checkpointBodySchema = z.strictObject({
  origin: z.string(),
  treeSize: z.number().int().min(0),
  rootHash: z.string(),
  /** The C2SP signed note, verbatim. */
  checkpoint: z.string(),
});
export type CheckpointBody = z.infer<typeof checkpointBodySchema>;

/** A log shard's origin, `<host>/log/<shard>`; omitted, the deployment's own log (LOG_ORIGIN). */
export const logOriginQuery = () =>
  queryText()
    .regex(
      /^[A-Za-z0-9.-]+(?::[0-9]{1,5})?\/log\/[A-Za-z0-9._-]{1,64}$/,
      'must be a log origin, <host>/log/<shard>',
    )
    .optional();

export const checkpointQuerySchema = z.strictObject({ origin: logOriginQuery() });

export const inclusionQuerySchema = z.strictObject({
  index: queryInteger(0),
  size: queryInteger(1),
  origin: logOriginQuery(),
});

export const entryProofQuerySchema = z.strictObject({
  index: queryInteger(0),
  origin: logOriginQuery(),
});

/** An entry's C2SP tlog-proof at the log's published checkpoint (cosigned, when it has witnesses). */
export const entryProofBodySchema = z.strictObject({
  origin: z.string(),
  index: z.number().int().min(0),
  treeSize: z.number().int().min(1),
  /** The tlog-proof text: index, inclusion path and the checkpoint note with its cosignatures. */
  proof: z.string(),
});
export type EntryProofBody = z.infer<typeof entryProofBodySchema>;

/** Sizes of the log's tree; a proof from size 0 is not defined (RFC 9162 §2.1.4). */
export const consistencyQuerySchema = z.strictObject({
  from: queryInteger(1),
  to: queryInteger(1),
  origin: logOriginQuery(),
});

export const inclusionBodySchema = z.strictObject({
  index: z.number().int().min(0),
  treeSize: z.number().int().min(1),
  /** base64 hashes, the leaf's sibling first (RFC 9162). */
  hashes: z.array(z.string()),
});
