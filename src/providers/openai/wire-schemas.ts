import { z } from 'zod';
import { openaiAnnotationSchema } from './url-citations';

// Chat Completions on the wire, described loosely: unknown fields pass, fields Valve reads are typed.
// Field names from https://platform.openai.com/docs/api-reference/chat/object and .../chat/streaming.

const toolCallSchema = z.looseObject({
  id: z.string(),
  type: z.string().optional(),
  function: z.looseObject({ name: z.string(), arguments: z.string() }),
});

export const openaiUsageSchema = z.looseObject({
  prompt_tokens: z.number().int().min(0),
  completion_tokens: z.number().int().min(0),
  prompt_tokens_details: z.looseObject({ cached_tokens: z.number().int().nullish() }).nullish(),
  completion_tokens_details: z.looseObject({ reasoning_tokens: z.number().int().nullish() }).nullish(),
});
export type OpenAIUsage = z.infer<typeof openaiUsageSchema>;

export const openaiResponseSchema = z.looseObject({
  id: z.string().optional(),
  model: z.string().optional(),
  choices: z
    .array(
      z.looseObject({
        message: z.looseObject({
          content: z.string().nullish(),
          refusal: z.string().nullish(),
          reasoning_content: z.string().nullish(),
          tool_calls: z.array(toolCallSchema).nullish(),
          annotations: z.array(openaiAnnotationSchema).nullish(),
        }),
        finish_reason: z.string().nullish(),
      }),
    )
    .min(1),
  usage: openaiUsageSchema.nullish(),
});
export type OpenAIResponse = z.infer<typeof openaiResponseSchema>;

export const openaiErrorBodySchema = z.looseObject({
  error: z.looseObject({
    message: z.string().nullish(),
    type: z.string().nullish(),
    code: z.union([z.string(), z.number()]).nullish(),
    param: z.string().nullish(),
  }),
});
export type OpenAIErrorBody = z.infer<typeof openaiErrorBodySchema>;

export const openaiChunkSchema = z.looseObject({
  id: z.string().optional(),
  model: z.string().optional(),
  choices: z
    .array(
      z.looseObject({
        index: z.number().int().optional(),
        delta: z
          .looseObject({
            content: z.string().nullish(),
            refusal: z.string().nullish(),
            reasoning_content: z.string().nullish(),
            annotations: z.array(openaiAnnotationSchema).nullish(),
            tool_calls: z
              .array(
                z.looseObject({
                  index: z.number().int(),
                  id: z.string().nullish(),
                  function: z
                    .looseObject({ name: z.string().nullish(), arguments: z.string().nullish() })
                    .nullish(),
                }),
              )
              .nullish(),
          })
          .nullish(),
        finish_reason: z.string().nullish(),
      }),
    )
    .default([]),
  usage: openaiUsageSchema.nullish(),
});
export type OpenAIChunk = z.infer<typeof openaiChunkSchema>;
