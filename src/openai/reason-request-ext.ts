import { z } from 'zod';
import { reasonRequestSchema } from '../contracts/reason-request';

// The Reason request extended for an agent loop: assistant tool calls, tool results, tool choice and
// sampling settings. Every request valid without these fields stays valid and means the same. This
// local twin stands in for the shared contract until the pipeline itself accepts the extended shape.

const textTurnSchema = z.strictObject({ role: z.enum(['user', 'assistant']), content: z.string() });

const toolCallTurnSchema = z.strictObject({
  role: z.literal('assistant'),
  content: z.string().optional(),
  toolCalls: z
    .array(
      z.strictObject({
        id: z.string().min(1).max(256),
        name: z.string().min(1).max(64),
        arguments: z.record(z.string(), z.unknown()),
      }),
    )
    .min(1)
    .max(128),
});

const toolResultTurnSchema = z.strictObject({
  role: z.literal('tool'),
  toolCallId: z.string().min(1).max(256),
  name: z.string().min(1).max(64).optional(),
  content: z.union([z.string(), z.record(z.string(), z.unknown()), z.array(z.unknown())]),
});

export const extConversationItemSchema = z.union([textTurnSchema, toolCallTurnSchema, toolResultTurnSchema]);
export type ExtConversationItem = z.infer<typeof extConversationItemSchema>;

export const toolChoiceSchema = z.union([
  z.enum(['auto', 'none', 'required']),
  z.strictObject({ name: z.string().min(1).max(64) }),
]);
export type ExtToolChoice = z.infer<typeof toolChoiceSchema>;

export const samplingSchema = z.strictObject({
  temperature: z.number().min(0).max(2).optional(),
  topP: z.number().min(0).max(1).optional(),
  stop: z.array(z.string().min(1)).max(4).optional(),
  seed: z.number().int().optional(),
});
export type Sampling = z.infer<typeof samplingSchema>;

export const extReasonRequestSchema = reasonRequestSchema.extend({
  conversation: z.array(extConversationItemSchema).max(1000).optional(),
  toolChoice: toolChoiceSchema.optional(),
  parallelToolCalls: z.boolean().optional(),
  sampling: samplingSchema.optional(),
});
export type ExtReasonRequest = z.infer<typeof extReasonRequestSchema>;
