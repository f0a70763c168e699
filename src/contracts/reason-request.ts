import { z } from 'zod';
import {
  conversationTurnSchema,
  jsonObjectSchema,
  toolNamePattern,
  toolNameSchema,
} from './conversation-turn';
import { type MediaPart, mediaListSchema, mediaPolicySchema, requestMediaIssues } from './media-part';
import { messageLevelSchema } from './privacy-level';
import { maxResultCharsSchema } from './tool-status';
import { toolTurnIssues } from './tool-turn-issues';

// The public Reason request, field for field as schemas/reason-request.schema.json.
// Every object is strict, so a misspelled field is rejected by name instead of silently ignored.

export {
  assistantTurnSchema,
  type ConversationTurn,
  conversationTurnSchema,
  jsonObjectSchema,
  type ReasoningItem,
  reasoningItemSchema,
  type ToolCallTurnCall,
  type ToolTurn,
  toolCallIdPattern,
  toolCallIdSchema,
  toolCallSchema,
  toolNamePattern,
  toolTurnSchema,
  userTurnSchema,
} from './conversation-turn';
export { messageLevelSchema, type PrivacyLevel, privacyLevels } from './privacy-level';

/** RFC 4122 UUID in lowercase canonical form. */
export const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
export const uuidSchema = z.string().regex(uuidPattern, 'must be a lowercase RFC 4122 UUID');

/**
 * A receiptId a caller may choose: any lowercase UUID except version 8, which Valve keeps for the ids it
 * generates itself. A generated id is returned in the answer before its receipt row is stored (that
 * row is written behind the answer), so a caller who sent it back as its own receiptId could otherwise
 * claim it anew and get a second receipt for one id.
 */
export const callerReceiptIdPattern =
  /^[0-9a-f]{8}-[0-9a-f]{4}-[1-7][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
export const callerReceiptIdSchema = z
  .string()
  .regex(uuidPattern, 'must be a lowercase RFC 4122 UUID')
  .regex(
    callerReceiptIdPattern,
    'must not be a version 8 UUID: those are the receipt ids Valve generates (use crypto.randomUUID())',
  );

export const receiptSaltPattern = /^[A-Za-z0-9_-]{43,512}$/;

/** A caller's receiptSalt: 43 to 512 base64url characters (at least 256 bits). */
export const receiptSaltSchema = z
  .string()
  .regex(receiptSaltPattern, 'must be 43–512 characters of the base64url alphabet');

export const capabilitySchema = z.strictObject({
  name: z.string().regex(toolNamePattern, 'must be 1–64 characters of A–Z, a–z, 0–9, _ or -'),
  // Agents describe their tools at length: several of Claude Code's own run past 4,096 characters.
  description: z.string().max(32_768).optional(),
  inputSchema: jsonObjectSchema,
  /** At most this many characters of the tool's results reach the model, then a cut marker. */
  maxResultChars: maxResultCharsSchema.optional(),
  annotations: z
    .strictObject({
      readOnly: z.boolean().optional(),
      idempotent: z.boolean().optional(),
      destructive: z.boolean().optional(),
    })
    .optional(),
});
export type Capability = z.infer<typeof capabilitySchema>;

// biome-ignore lint/suspicious/noControlCharactersInRegex: rejecting control characters is the point.
const oneLine = /^[^\x00-\x1F\x7F-\x9F\u2028\u2029]*$/;

export const contextItemSchema = z
  .strictObject({
    // A label is written inside the region's opening tag, which must stay one line.
    label: z
      .string()
      .max(256)
      .regex(oneLine, 'a label must be one line: no newline, tab or other control character')
      .optional(),
    trust: z.enum(['trusted', 'untrusted']),
    privacy: messageLevelSchema,
    /** The item's text or JSON; optional when it carries media. */
    content: z.union([z.string(), jsonObjectSchema, z.array(z.unknown())]).optional(),
    /** Images, audio and PDFs, read as part of the item: same trust, same privacy, same region. */
    media: mediaListSchema.optional(),
  })
  .refine((item) => item.content !== undefined || item.media !== undefined, {
    message: 'a context item needs content, media or both',
    path: ['content'],
  });
export type ContextItem = z.infer<typeof contextItemSchema>;

/** Which tool the model may or must call: as OpenAI's `tool_choice`, a named tool being one of `tools`. */
export const toolChoiceSchema = z.union([
  z.enum(['auto', 'none', 'required']),
  z.strictObject({ name: toolNameSchema }),
]);
export type ToolChoice = z.infer<typeof toolChoiceSchema>;

/** Sampling settings, passed to the models that take them (dropped with a warning by those that do not). */
export const samplingSchema = z.strictObject({
  temperature: z.number().min(0).max(2).optional(),
  topP: z.number().min(0).max(1).optional(),
  stop: z.array(z.string().min(1).max(256)).max(4).optional(),
  // The range every provider takes (Gemini's seed is a 32-bit integer).
  seed: z.number().int().min(-2_147_483_648).max(2_147_483_647).optional(),
});
export type Sampling = z.infer<typeof samplingSchema>;

/** The effort levels a caller may ask for; each model takes those its catalog entry lists (docs/policy.md). */
export const reasoningEfforts = ['minimal', 'low', 'medium', 'high'] as const;
export type ReasoningEffort = (typeof reasoningEfforts)[number];
export const reasoningSummaries = ['auto', 'concise', 'detailed'] as const;

/**
 * How much the model should think before answering (seed 000 `Settings.reasoning`, seed 001
 * `LucentReasoningConfig`). Thinking is billed as output and planned inside the request's one budget.
 */
export const reasoningSchema = z.strictObject({
  enabled: z.boolean().optional(),
  effort: z.enum(reasoningEfforts).optional(),
  budgetTokens: z.number().int().min(0).max(1_000_000).optional(),
  summary: z.enum(reasoningSummaries).optional(),
});
export type Reasoning = z.infer<typeof reasoningSchema>;

export const outputSpecSchema = z.strictObject({
  format: z.enum(['text', 'json']),
  schema: jsonObjectSchema.optional(),
  /** Ask the model to cite the PDFs it is sent, where the provider needs asking (Anthropic). */
  citations: z.boolean().optional(),
});
export type OutputSpec = z.infer<typeof outputSpecSchema>;

export const modelRefSchema = z.strictObject({
  provider: z.string().min(1).max(64),
  model: z.string().min(1).max(256),
});
export type ModelRef = z.infer<typeof modelRefSchema>;

export const modelPolicySchema = z.strictObject({
  prefer: z.enum(['quality', 'cost', 'speed']).optional(),
  pinned: modelRefSchema.optional(),
  allowFallback: z.boolean().optional(),
  regions: z.array(z.string().min(1).max(64)).max(64).optional(),
  maxCostUsd: z.number().min(0).optional(),
  maxLatencyMs: z.number().int().min(1).max(600_000).optional(),
  maxOutputTokens: z.number().int().min(1).max(1_000_000).optional(),
});
export type ModelPolicy = z.infer<typeof modelPolicySchema>;

/** How context is marked inside data regions (docs/trust.md); `tags+base64` needs a capable model. */
export const promptModes = ['tags', 'tags+lines', 'tags+datamark', 'tags+base64', 'json'] as const;
export type PromptMode = (typeof promptModes)[number];

/**
 * Where the caller's instructions go when Valve restates the request after the data (docs/trust.md):
 * `system`, in the system message and again after the last untrusted region; `after-data`, only after
 * the last untrusted region (for models that lose the task when it is stated before the data);
 * `data-turn`, only in a user turn of their own, after the untrusted regions' user turn and a fixed
 * assistant reply (for models that take a request repeated inside the data for the caller's).
 */
export const promptLayouts = ['system', 'after-data', 'data-turn'] as const;
export type PromptLayout = (typeof promptLayouts)[number];

/** Per-request override of the rendering; without it, the answering model's catalog entry decides. */
export const renderingSchema = z.strictObject({
  mode: z.enum(promptModes).optional(),
  layout: z.enum(promptLayouts).optional(),
});
export type Rendering = z.infer<typeof renderingSchema>;

/**
 * Prompt-cache breakpoints, for providers that cache a prompt's prefix up to a marked block (Anthropic's
 * `cache_control`; others cache on their own or not at all). Only two places end bytes that repeat from
 * one request to the next, since Valve's rendering puts per-request values after them: the end of the
 * tools, and the end of the caller's instructions where they open the system channel
 * (docs/reason-api.md#prompt-caching).
 */
export const promptCacheSchema = z.strictObject({
  tools: z.boolean().optional(),
  instructions: z.boolean().optional(),
});
export type PromptCache = z.infer<typeof promptCacheSchema>;

export const reasonRequestSchema = z
  .strictObject({
    task: z.string().min(1).max(256),
    instructions: z.string().max(200_000),
    context: z.array(contextItemSchema).max(1000).optional(),
    conversation: z.array(conversationTurnSchema).max(1000).optional(),
    /** The privacy of what carries none: instructions and unlabelled turns (the deployment default when absent). */
    privacy: messageLevelSchema.optional(),
    tools: z.array(capabilitySchema).max(128).optional(),
    toolChoice: toolChoiceSchema.optional(),
    parallelToolCalls: z.boolean().optional(),
    sampling: samplingSchema.optional(),
    reasoning: reasoningSchema.optional(),
    output: outputSpecSchema.optional(),
    modelPolicy: modelPolicySchema.optional(),
    rendering: renderingSchema.optional(),
    cache: promptCacheSchema.optional(),
    mediaPolicy: mediaPolicySchema.optional(),
    receiptId: callerReceiptIdSchema.optional(),
    receiptSalt: receiptSaltSchema.optional(),
  })
  .superRefine((request, ctx) => {
    for (const issue of toolTurnIssues(request.conversation ?? [])) {
      ctx.addIssue({ code: 'custom', path: ['conversation', ...issue.path], message: issue.message });
    }
    const choice = request.toolChoice;
    const tools = request.tools ?? [];
    if (typeof choice === 'object' && !tools.some((tool) => tool.name === choice.name)) {
      ctx.addIssue({ code: 'custom', path: ['toolChoice', 'name'], message: 'names no tool of `tools`' });
    }
    if (choice === 'required' && tools.length === 0) {
      ctx.addIssue({ code: 'custom', path: ['toolChoice'], message: '`required` needs at least one tool' });
    }
    const reasoning = request.reasoning;
    if (
      reasoning?.enabled === false &&
      (reasoning.effort !== undefined || reasoning.budgetTokens !== undefined)
    ) {
      ctx.addIssue({
        code: 'custom',
        path: ['reasoning', 'enabled'],
        message: '`false` turns thinking off: leave out effort and budgetTokens',
      });
    }
    for (const issue of requestMediaIssues(request)) ctx.addIssue({ code: 'custom', ...issue });
  });
export type ReasonRequest = z.infer<typeof reasonRequestSchema>;

/** Every media part of a request, in order: its context items', then its user turns'. */
export function mediaPartsOf(request: Pick<ReasonRequest, 'context' | 'conversation'>): MediaPart[] {
  const turns = (request.conversation ?? []).flatMap((turn) =>
    turn.role === 'user' ? (turn.media ?? []) : [],
  );
  return [...(request.context ?? []).flatMap((item) => item.media ?? []), ...turns];
}
