import { z } from 'zod';
import { queryCursor } from './list-cursor';
import { queryInteger } from './query-params';
import { toolTurnSchema, uuidSchema } from './reason-request';

// POST /v1/approvals/{callId} and GET /v1/approvals: a reviewer's decision on a tool call Valve held
// back (seed 000 `Decision`), and the calls that wait for one.

const argsSchema = z.record(z.string(), z.unknown());

/** The seed's Decision, with the receipt of the answer when a call id alone is not enough. */
export const decisionBodySchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('approve'), receiptId: uuidSchema.optional() }),
  z.strictObject({
    type: z.literal('edit'),
    name: z.string().min(1).optional(),
    args: argsSchema,
    receiptId: uuidSchema.optional(),
  }),
  z.strictObject({
    type: z.literal('reject'),
    message: z.string().max(4096).optional(),
    receiptId: uuidSchema.optional(),
  }),
  z.strictObject({
    type: z.literal('respond'),
    message: z.string().max(4096),
    receiptId: uuidSchema.optional(),
  }),
]);
export type DecisionBody = z.infer<typeof decisionBodySchema>;

export const approvalStatuses = [
  'pending',
  'approved',
  'edited',
  'rejected',
  'responded',
  'expired',
] as const;
export type ApprovalStatus = (typeof approvalStatuses)[number];

/** One held call as a reviewer sees it. */
export const approvalSchema = z.strictObject({
  callId: z.string(),
  receiptId: uuidSchema,
  tool: z.string(),
  args: argsSchema,
  description: z.string().optional(),
  allowed: z.array(z.enum(['approve', 'edit', 'reject', 'respond'])),
  status: z.enum(approvalStatuses),
  heldAt: z.number().int().min(0),
  /** Epoch ms after which no decision is taken. */
  expiresAt: z.number().int().min(0),
  decidedAt: z.number().int().min(0).nullable(),
  /** The id of the key that decided. */
  decidedBy: z.string().nullable(),
});
export type Approval = z.infer<typeof approvalSchema>;

/** The answer to a decision: the call as decided, and its capability when it may now run. */
export const decidedSchema = z.strictObject({
  approval: approvalSchema,
  /** The call that may run (approve: as held; edit: the reviewer's name and args). */
  toolCall: z
    .strictObject({ id: z.string(), name: z.string(), arguments: argsSchema, capability: z.string() })
    .optional(),
  /** The message of a reject or respond. */
  message: z.string().optional(),
  /** A reject or respond as the tool turn to send with the next request, marked as the reviewer's. */
  toolTurn: toolTurnSchema.optional(),
  /** The audit record of the decision and its entry in the log. */
  audit: z.strictObject({ seq: z.number().int().min(1), hash: z.string() }),
});
export type Decided = z.infer<typeof decidedSchema>;

export const approvalsQuerySchema = z.strictObject({
  status: z.enum(approvalStatuses).optional(),
  limit: queryInteger(1, 100).optional(),
  cursor: queryCursor(z.tuple([z.number().int(), z.string(), z.string()])).optional(),
});

export const approvalListSchema = z.strictObject({
  items: z.array(approvalSchema),
  next: z.string().nullable(),
});

/** A held call as Valve keeps it when the answer that held it is issued (storage/approvals.ts). */
export interface HeldCall {
  tenant: string;
  receiptId: string;
  callId: string;
  tool: string;
  args: Record<string, unknown>;
  /** Every tool the request offered, for an edit to be checked against. */
  tools: { name: string; inputSchema: unknown }[];
  description?: string;
  allowed: Approval['allowed'];
  tainted: boolean;
  heldAt: number;
  expiresAt: number;
}
