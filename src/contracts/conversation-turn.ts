import { z } from 'zod';
import { mediaListSchema } from './media-part';
import { messageLevelSchema } from './privacy-level';
import { toolResultErrorSchema, toolStatusSchema, toolTurnSourceSchema } from './tool-status';

// The turns of a Reason request's conversation, field for field as schemas/reason-request.schema.json
// (re-exported by reason-request.ts). Every object is strict.

export const toolNamePattern = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * A tool call's id: the characters every provider takes (Anthropic allows only these), one line, so it
 * can never break the region tag it is rendered into.
 */
export const toolCallIdPattern = /^[A-Za-z0-9_-]{1,256}$/;
export const toolCallIdSchema = z
  .string()
  .regex(toolCallIdPattern, 'must be 1–256 characters of A–Z, a–z, 0–9, _ or -');

export const jsonObjectSchema = z.record(z.string(), z.unknown());

export const toolNameSchema = z
  .string()
  .regex(toolNamePattern, 'must be 1–64 characters of A–Z, a–z, 0–9, _ or -');

/** One call an assistant turn made: the id pairs it with its result, the arguments are model output. */
export const toolCallSchema = z.strictObject({
  id: toolCallIdSchema,
  name: toolNameSchema,
  arguments: jsonObjectSchema,
});
export type ToolCallTurnCall = z.infer<typeof toolCallSchema>;

/**
 * A piece of a model's reasoning as it answered (seed 000's `reasoning` block, seed 001's
 * `LucentThinking`): thinking text or a summary of it, and the opaque state a provider asks to be sent
 * back (Anthropic's `signature` and `redacted_thinking` data, Gemini's `thoughtSignature`, which
 * `toolCallId` ties to the call it came with). `provider` and `model` name the catalog model that
 * produced it: an assistant turn's items are replayed to that model unchanged and to no other.
 */
export const reasoningItemSchema = z.strictObject({
  provider: z.string().min(1).max(64),
  model: z.string().min(1).max(256),
  text: z.string().optional(),
  /** The text is the provider's summary of its thinking, not the thinking itself. */
  summary: z.boolean().optional(),
  signature: z.string().min(1).optional(),
  redactedData: z.string().min(1).optional(),
  toolCallId: toolCallIdSchema.optional(),
});
export type ReasoningItem = z.infer<typeof reasoningItemSchema>;

/** The user's own turn: its text, and the images, audio and PDFs the user sent with it. */
export const userTurnSchema = z.strictObject({
  role: z.literal('user'),
  content: z.string(),
  /** How sensitive this turn is; the request's `privacy` when absent. */
  privacy: messageLevelSchema.optional(),
  media: mediaListSchema.optional(),
});

/** Today's assistant text turn, or an assistant turn that called tools (then `content` is optional). */
export const assistantTurnSchema = z
  .strictObject({
    role: z.literal('assistant'),
    content: z.string().optional(),
    privacy: messageLevelSchema.optional(),
    toolCalls: z.array(toolCallSchema).min(1).max(128).optional(),
    /** The reasoning that came with the turn, as the answer gave it: sent back to the model that made it. */
    reasoning: z.array(reasoningItemSchema).max(256).optional(),
  })
  .refine((turn) => turn.content !== undefined || turn.toolCalls !== undefined, {
    message: 'an assistant turn needs content, toolCalls or both',
    path: ['content'],
  });

/** A tool's result, answering one call of an earlier assistant turn. Always untrusted. */
export const toolTurnSchema = z.strictObject({
  role: z.literal('tool'),
  toolCallId: toolCallIdSchema,
  name: toolNameSchema.optional(),
  content: z.union([z.string(), jsonObjectSchema, z.array(z.unknown())]),
  /** How the call ended (seed ToolStatus); `success` when absent. */
  status: toolStatusSchema.optional(),
  error: toolResultErrorSchema.optional(),
  /** Who wrote the result: the tool (default) or a reviewer who rejected the call or answered for it. */
  source: toolTurnSourceSchema.optional(),
  privacy: messageLevelSchema.optional(),
});

export const conversationTurnSchema = z.discriminatedUnion('role', [
  userTurnSchema,
  assistantTurnSchema,
  toolTurnSchema,
]);
export type ConversationTurn = z.infer<typeof conversationTurnSchema>;
export type ToolTurn = z.infer<typeof toolTurnSchema>;
