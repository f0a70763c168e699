import { z } from 'zod';
import { geminiGroundingSchema } from './grounding';

// generateContent on the wire, loosely. Field names from
// https://ai.google.dev/api/generate-content (GenerateContentResponse, UsageMetadata, FinishReason)
// and https://ai.google.dev/gemini-api/docs/troubleshooting (error statuses).

export const geminiUsageSchema = z.looseObject({
  promptTokenCount: z.number().int().nullish(),
  candidatesTokenCount: z.number().int().nullish(),
  cachedContentTokenCount: z.number().int().nullish(),
  thoughtsTokenCount: z.number().int().nullish(),
  totalTokenCount: z.number().int().nullish(),
});
export type GeminiUsage = z.infer<typeof geminiUsageSchema>;

export const geminiPartSchema = z.looseObject({
  text: z.string().optional(),
  thought: z.boolean().optional(),
  thoughtSignature: z.string().optional(),
  functionCall: z
    .looseObject({ id: z.string().optional(), name: z.string(), args: z.unknown().optional() })
    .optional(),
});
export type GeminiPart = z.infer<typeof geminiPartSchema>;

export const geminiResponseSchema = z.looseObject({
  candidates: z
    .array(
      z.looseObject({
        content: z.looseObject({ parts: z.array(geminiPartSchema).nullish() }).nullish(),
        finishReason: z.string().nullish(),
        groundingMetadata: geminiGroundingSchema.nullish(),
      }),
    )
    .nullish(),
  promptFeedback: z.looseObject({ blockReason: z.string().nullish() }).nullish(),
  usageMetadata: geminiUsageSchema.nullish(),
  modelVersion: z.string().nullish(),
  responseId: z.string().nullish(),
});
export type GeminiResponse = z.infer<typeof geminiResponseSchema>;

export const geminiErrorBodySchema = z.looseObject({
  error: z.looseObject({
    code: z.number().int().nullish(),
    message: z.string().nullish(),
    status: z.string().nullish(),
    details: z.array(z.looseObject({ '@type': z.string().optional() })).nullish(),
  }),
});
