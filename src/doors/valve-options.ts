import { z } from 'zod';
import { namedApprovalSchema } from '../contracts/door-approvals';
import { mediaPolicySchema } from '../contracts/media-part';
import {
  callerReceiptIdSchema,
  contextItemSchema,
  messageLevelSchema,
  modelPolicySchema,
  receiptSaltSchema,
  renderingSchema,
  toolNamePattern,
} from '../contracts/reason-request';

// Everything Valve-only rides in one strict top-level `valve` object of an OpenAI-shaped body: the
// Node SDK passes unknown params through, Python sends it with `extra_body`, the Vercel AI SDK with
// `providerOptions`. A misspelled member is rejected by name, like every other field.

export const toolAnnotationsSchema = z.strictObject({
  readOnly: z.boolean().optional(),
  idempotent: z.boolean().optional(),
  destructive: z.boolean().optional(),
});

export const valveOptionsSchema = z.strictObject({
  task: z.string().min(1).max(256).optional(),
  modelPolicy: modelPolicySchema.optional(),
  context: z.array(contextItemSchema).max(1000).optional(),
  rendering: renderingSchema.optional(),
  /** What Valve may do with the request's media: URLs the provider fetches, untrusted context media. */
  mediaPolicy: mediaPolicySchema.optional(),
  receiptId: callerReceiptIdSchema.optional(),
  receiptSalt: receiptSaltSchema.optional(),
  /** The most sensitive privacy level of the messages themselves: only models allowed it are planned. */
  privacy: messageLevelSchema.optional(),
  /** Annotations of the OpenAI tools by name (OpenAI's tool shape has no place for them). */
  toolAnnotations: z.record(z.string().regex(toolNamePattern), toolAnnotationsSchema).optional(),
  /** Hand over tainted calls to `destructive` tools instead of holding them back. */
  allowTaintedDestructive: z.boolean().optional(),
  /** Ask the model to cite the PDFs it reads (the Reason request's `output.citations`). */
  citations: z.boolean().optional(),
  /** Held calls this request continues after a reviewer decided them (docs/approvals.md "At the doors"). */
  approvals: z.array(namedApprovalSchema).min(1).max(128).optional(),
});
export type ValveOptions = z.infer<typeof valveOptionsSchema>;
