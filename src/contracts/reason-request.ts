import { z } from 'zod';

// The public Reason request: seed `003` field for field, with the `$defs` api.md supplies.
// Every object is strict, so a misspelled field is rejected by name instead of silently ignored.

export const privacyLevels = ['public', 'internal', 'confidential', 'restricted'] as const;
export const messageLevelSchema = z.enum(privacyLevels);
export type PrivacyLevel = z.infer<typeof messageLevelSchema>;

/** RFC 4122 UUID in lowercase canonical form. */
export const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
export const uuidSchema = z.string().regex(uuidPattern, 'must be a lowercase RFC 4122 UUID');

export const receiptSaltPattern = /^[A-Za-z0-9_-]{43,512}$/;

export const toolNamePattern = /^[A-Za-z0-9_-]{1,64}$/;

export const jsonObjectSchema = z.record(z.string(), z.unknown());

export const capabilitySchema = z.strictObject({
  name: z.string().regex(toolNamePattern, 'must be 1–64 characters of A–Z, a–z, 0–9, _ or -'),
  description: z.string().max(4096).optional(),
  inputSchema: jsonObjectSchema,
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

export const contextItemSchema = z.strictObject({
  // A label is written inside the region's opening tag, which must stay one line.
  label: z
    .string()
    .max(256)
    .regex(oneLine, 'a label must be one line: no newline, tab or other control character')
    .optional(),
  trust: z.enum(['trusted', 'untrusted']),
  privacy: messageLevelSchema,
  content: z.union([z.string(), jsonObjectSchema, z.array(z.unknown())]),
});
export type ContextItem = z.infer<typeof contextItemSchema>;

export const conversationTurnSchema = z.strictObject({
  role: z.enum(['user', 'assistant']),
  content: z.string(),
});
export type ConversationTurn = z.infer<typeof conversationTurnSchema>;

export const outputSpecSchema = z.strictObject({
  format: z.enum(['text', 'json']),
  schema: jsonObjectSchema.optional(),
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

/** How context is marked inside data regions (trust.md, "Modes"); `tags+base64` needs a capable model. */
export const promptModes = ['tags', 'tags+datamark', 'tags+base64', 'json'] as const;
export type PromptMode = (typeof promptModes)[number];

/** Per-request override of the rendering; without it, the answering model's catalog entry decides. */
export const renderingSchema = z.strictObject({
  mode: z.enum(promptModes).optional(),
});
export type Rendering = z.infer<typeof renderingSchema>;

export const reasonRequestSchema = z.strictObject({
  task: z.string().min(1).max(256),
  instructions: z.string().max(200_000),
  context: z.array(contextItemSchema).max(1000).optional(),
  conversation: z.array(conversationTurnSchema).max(1000).optional(),
  tools: z.array(capabilitySchema).max(128).optional(),
  output: outputSpecSchema.optional(),
  modelPolicy: modelPolicySchema.optional(),
  rendering: renderingSchema.optional(),
  receiptId: uuidSchema.optional(),
  receiptSalt: z
    .string()
    .regex(receiptSaltPattern, 'must be 43–512 characters of the base64url alphabet')
    .optional(),
});
export type ReasonRequest = z.infer<typeof reasonRequestSchema>;
