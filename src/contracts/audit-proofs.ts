import { z } from 'zod';

// GET /v1/admin/audit/proofs: each audit record's entry in the Merkle log, proven against one checkpoint.

export const auditProofSchema = z.strictObject({
  seq: z.number().int().min(1),
  /** The record's hash (hex); its log entry is SHA-256("valve-audit/v1/entry" || 0x00 || hash). */
  hash: z.string().regex(/^[0-9a-f]{64}$/),
  index: z.number().int().min(0),
  /** base64 inclusion path, the leaf's sibling first. */
  hashes: z.array(z.string()),
});

export const auditProofsSchema = z.strictObject({
  /** The signed checkpoint every proof leads to. */
  checkpoint: z.string(),
  proofs: z.array(auditProofSchema),
  next: z.number().int().nullable(),
});
export type AuditProofs = z.infer<typeof auditProofsSchema>;
