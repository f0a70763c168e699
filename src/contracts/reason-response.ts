import { z } from 'zod';
import { uuidSchema } from './reason-request';

// The Reason response of api.md.

export const finishReasonSchema = z.enum([
  'stop',
  'tool_calls',
  'length',
  'content_filter',
  'error',
  'other',
]);

export const approvalRequestSchema = z.strictObject({
  call_id: z.string(),
  tool: z.string(),
  args: z.record(z.string(), z.unknown()),
  description: z.string().optional(),
  allowed: z.array(z.enum(['approve', 'edit', 'reject', 'respond'])),
});

export const toolCallSchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  arguments: z.record(z.string(), z.unknown()),
  tainted: z.boolean(),
  approval: approvalRequestSchema.optional(),
});
export type ToolCall = z.infer<typeof toolCallSchema>;

export const reasonOutputSchema = z.discriminatedUnion('format', [
  z.strictObject({ format: z.literal('text'), text: z.string() }),
  z.strictObject({ format: z.literal('json'), value: z.unknown() }),
]);
export type ReasonOutput = z.infer<typeof reasonOutputSchema>;

export const answeringModelSchema = z.strictObject({
  provider: z.string(),
  model: z.string(),
  region: z.string(),
});

export const usageSchema = z.strictObject({
  inputTokens: z.number().int().min(0),
  outputTokens: z.number().int().min(0),
  reasoningTokens: z.number().int().min(0),
  cacheReadTokens: z.number().int().min(0),
});
export type ReasonUsage = z.infer<typeof usageSchema>;

export const decisionSchema = z.strictObject({
  prefer: z.enum(['quality', 'cost', 'speed']),
  plan: z.array(
    z.strictObject({
      provider: z.string(),
      model: z.string(),
      estCostUsd: z.number().min(0),
      estLatencyMs: z.number().min(0),
    }),
  ),
  excluded: z.array(
    z.strictObject({ provider: z.string(), model: z.string(), reason: z.string(), detail: z.string() }),
  ),
  attempts: z.array(
    z.strictObject({
      provider: z.string(),
      model: z.string(),
      outcome: z.enum(['ok', 'error', 'skipped']),
      errorKind: z.string().optional(),
      latencyMs: z.number().min(0),
      costUsd: z.number().min(0),
      usage: usageSchema.optional(),
    }),
  ),
});
export type Decision = z.infer<typeof decisionSchema>;

export const warningSchema = z.strictObject({ code: z.string(), message: z.string() });

export const receiptSchema = z.strictObject({
  jws: z.string(),
  proof: z.string(),
  receiptSalt: z.string().optional(),
});

export const reasonResponseSchema = z.strictObject({
  receiptId: uuidSchema,
  task: z.string(),
  output: reasonOutputSchema,
  toolCalls: z.array(toolCallSchema),
  finishReason: finishReasonSchema,
  model: answeringModelSchema,
  usage: usageSchema,
  costUsd: z.number().min(0),
  latencyMs: z.number().int().min(0),
  decision: decisionSchema,
  warnings: z.array(warningSchema),
  receipt: receiptSchema.optional(),
});
export type ReasonResponse = z.infer<typeof reasonResponseSchema>;
