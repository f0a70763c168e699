import { z } from 'zod';
import { approvalStatuses } from './approvals';
import { uuidSchema } from './reason-request';
import { reasonResponseSchema, toolCallSchema } from './reason-response';

// Held tool calls at the OpenAI and Anthropic doors (docs/approvals.md "At the doors"): what a door
// answer adds to its `valve` extension, and how a continuation names a decided call.

const argsSchema = z.record(z.string(), z.unknown());

/** A call the door held back, as its approval request (seed 000 `ApprovalRequest`) with its window. */
export const heldApprovalSchema = z.strictObject({
  callId: z.string(),
  /** The receipt of the answer that held it. */
  receiptId: uuidSchema,
  tool: z.string(),
  args: argsSchema,
  description: z.string().optional(),
  allowed: z.array(z.enum(['approve', 'edit', 'reject', 'respond'])),
  /** Epoch ms: no decision is taken, and no continuation answered, after it. */
  expiresAt: z.number().int().min(0),
});
export type HeldApproval = z.infer<typeof heldApprovalSchema>;

/** A continuation's name for a held call (`valve.approvals[]`): its id, and its answer's receipt when the id is not enough. */
export const namedApprovalSchema = z.strictObject({
  callId: z.string().min(1).max(256),
  receiptId: uuidSchema.optional(),
});
export type NamedApproval = z.infer<typeof namedApprovalSchema>;

/** A door answer's `valve`: the signed Reason response, and the calls it held back (not committed to). */
export const doorExtensionSchema = reasonResponseSchema.extend({
  approvals: z.array(heldApprovalSchema).optional(),
});

/** The decision a continuation carries out. */
export const carriedDecisionSchema = z.strictObject({
  callId: z.string(),
  /** The receipt of the answer that held the call. */
  receiptId: uuidSchema,
  status: z.enum(approvalStatuses),
  /** The id of the key that decided. */
  decidedBy: z.string().nullable(),
  decidedAt: z.number().int().min(0).nullable(),
  /** The seq of the decision's audit record (GET /v1/admin/audit), which the log holds. */
  auditSeq: z.number().int().min(1).nullable(),
});
export type CarriedDecision = z.infer<typeof carriedDecisionSchema>;

/**
 * The `valve` of a continuation a door answered without a model: no receipt (no model ran), the
 * decision it carries out, and the call it hands over with its capability token.
 */
export const decidedExtensionSchema = z.strictObject({
  receipt: z.null(),
  note: z.string(),
  approval: carriedDecisionSchema,
  toolCalls: z.array(toolCallSchema),
});
export type DecidedExtension = z.infer<typeof decidedExtensionSchema>;
