import { z } from 'zod';
import { reasoningItemSchema, uuidSchema } from './reason-request';

// The Reason response (schemas/reason-response.schema.json).

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
  /** The call's capability token (contracts/capability.ts): on a call without `approval`, at once. */
  capability: z.string().optional(),
});
export type ToolCall = z.infer<typeof toolCallSchema>;

/**
 * A citation on the answer text (seed 001 `LucentAnnotation`): `start` and `end` are UTF-16 code unit
 * offsets into `output.text` (end exclusive), `text` the source passage cited, `ref` the URL cited or
 * the cited context item's label, `contextItem` the index in the request's `context` of the item cited.
 */
export const annotationSchema = z.strictObject({
  kind: z.enum(['url', 'file_citation', 'web_search_citation']),
  start: z.number().int().min(0),
  end: z.number().int().min(0),
  text: z.string().optional(),
  ref: z.string().optional(),
  title: z.string().optional(),
  contextItem: z.number().int().min(0).optional(),
});
export type Annotation = z.infer<typeof annotationSchema>;

export const reasonOutputSchema = z.discriminatedUnion('format', [
  /** `annotations`: the model's citations, present only when it cited. */
  z.strictObject({
    format: z.literal('text'),
    text: z.string(),
    annotations: z.array(annotationSchema).optional(),
  }),
  z.strictObject({ format: z.literal('json'), value: z.unknown() }),
  /** The model declined to answer (finishReason `content_filter`): its words, whatever format was asked for. */
  z.strictObject({ format: z.literal('refusal'), refusal: z.string() }),
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

export const decisionAttemptSchema = z.strictObject({
  provider: z.string(),
  model: z.string(),
  outcome: z.enum(['ok', 'error', 'skipped']),
  errorKind: z.string().optional(),
  latencyMs: z.number().min(0),
  /** What the attempt counts against maxCostUsd: billed usage, or the worst case when unknown. */
  costUsd: z.number().min(0),
  usage: usageSchema.optional(),
  /** 0 for the first call to a model, 1… for its retries. */
  retry: z.number().int().min(0).optional(),
  /** The `max_tokens` the attempt was given. */
  maxTokens: z.number().int().min(0).optional(),
  /** Why a planned attempt was skipped (an exclusion reason), when outcome is `skipped`. */
  reason: z.string().optional(),
  /** What happened next and why: the retry decision or the skip. */
  detail: z.string().optional(),
});
export type DecisionAttempt = z.infer<typeof decisionAttemptSchema>;

export const decisionSchema = z.strictObject({
  prefer: z.enum(['quality', 'cost', 'speed']),
  /** The caller's limits as applied, and what the attempts spent of them. */
  budget: z
    .strictObject({
      maxCostUsd: z.number().min(0).optional(),
      maxLatencyMs: z.number().min(0).optional(),
      maxOutputTokens: z.number().int().min(0).optional(),
      spentUsd: z.number().min(0),
    })
    .optional(),
  plan: z.array(
    z.strictObject({
      provider: z.string(),
      model: z.string(),
      estCostUsd: z.number().min(0),
      estLatencyMs: z.number().min(0),
      worstCaseUsd: z.number().min(0).optional(),
      maxTokens: z.number().int().min(0).optional(),
      speedSource: z.enum(['catalog', 'observed']).optional(),
    }),
  ),
  excluded: z.array(
    z.strictObject({ provider: z.string(), model: z.string(), reason: z.string(), detail: z.string() }),
  ),
  attempts: z.array(decisionAttemptSchema),
  /**
   * How each media part was priced before the call (docs/policy.md "Media"): its input tokens in every
   * attempt's plan and how they were reached. Absent when the request carries no media.
   */
  media: z
    .array(
      z.strictObject({
        path: z.string(),
        type: z.enum(['image', 'audio', 'file']),
        tokens: z.number().int().min(0),
        basis: z.enum(['read', 'bounded', 'limit']),
        why: z.string(),
      }),
    )
    .optional(),
  /** Tool calls not handed over as runnable (see reason/check-tool-call.ts). */
  invalidToolCalls: z
    .array(
      z.strictObject({
        type: z.literal('invalid_tool_call'),
        id: z.string(),
        name: z.string().optional(),
        raw_args: z.string(),
        error: z.string(),
        code: z.enum(['tool.unknown', 'tool.invalid_json', 'tool.invalid_arguments']),
      }),
    )
    .optional(),
});
export type Decision = z.infer<typeof decisionSchema>;

export const warningSchema = z.strictObject({ code: z.string(), message: z.string() });
export type Warning = z.infer<typeof warningSchema>;

export const receiptSchema = z.strictObject({
  jws: z.string(),
  proof: z.string(),
  receiptSalt: z.string().optional(),
});

export const reasonResponseSchema = z.strictObject({
  receiptId: uuidSchema,
  task: z.string(),
  output: reasonOutputSchema,
  /** The model's reasoning, when it gave any: send it back in the assistant turn that continues. */
  reasoning: z.array(reasoningItemSchema).optional(),
  toolCalls: z.array(toolCallSchema),
  finishReason: finishReasonSchema,
  model: answeringModelSchema,
  usage: usageSchema,
  costUsd: z.number().min(0),
  latencyMs: z.number().int().min(0),
  decision: decisionSchema,
  warnings: z.array(warningSchema),
  receipt: receiptSchema,
});
export type ReasonResponse = z.infer<typeof reasonResponseSchema>;

/** A finished answer before its receipt is issued. */
export type UnsignedResponse = Omit<ReasonResponse, 'receipt'>;

/** An answer that carries its receipt when the pipeline was given a receipt hook (always, in the routes). */
export type MaybeSignedResponse = UnsignedResponse & { receipt?: ReasonResponse['receipt'] };
