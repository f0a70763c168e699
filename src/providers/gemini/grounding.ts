import { z } from 'zod';
import { utf16IndexOfUtf8 } from '../../encoding/utf16-index-of-utf8';
import type { Annotation } from '../../model/annotation';

// Grounding metadata on a Gemini candidate (https://ai.google.dev/api/generate-content#GroundingMetadata,
// https://ai.google.dev/gemini-api/docs/google-search): `groundingChunks` are the sources (`web` pages
// from Google Search, `retrievedContext` from a retrieval tool), and each of `groundingSupports` ties a
// `segment` of the answer to some of them. A segment's `startIndex` and `endIndex` are UTF-8 byte
// offsets into the part at `partIndex`; Valve's annotations count UTF-16 code units.

const groundingSourceSchema = z.looseObject({
  uri: z.string().nullish(),
  title: z.string().nullish(),
  text: z.string().nullish(),
});

export const geminiGroundingSchema = z.looseObject({
  groundingChunks: z
    .array(
      z.looseObject({
        web: groundingSourceSchema.nullish(),
        retrievedContext: groundingSourceSchema.nullish(),
      }),
    )
    .nullish(),
  groundingSupports: z
    .array(
      z.looseObject({
        segment: z
          .looseObject({
            partIndex: z.number().int().min(0).nullish(),
            startIndex: z.number().int().min(0).nullish(),
            endIndex: z.number().int().min(0).nullish(),
          })
          .nullish(),
        groundingChunkIndices: z.array(z.number().int().min(0)).nullish(),
      }),
    )
    .nullish(),
});
export type GeminiGrounding = z.infer<typeof geminiGroundingSchema>;

/**
 * The citations of grounding metadata, by the index of the part they annotate, offsets into that
 * part's text. `textOf` gives a part's text (a stream passes all its text as part 0).
 */
export function groundingAnnotations(
  grounding: GeminiGrounding | null | undefined,
  textOf: (partIndex: number) => string | undefined,
): Map<number, Annotation[]> {
  const byPart = new Map<number, Annotation[]>();
  const chunks = grounding?.groundingChunks ?? [];
  for (const support of grounding?.groundingSupports ?? []) {
    const partIndex = support.segment?.partIndex ?? 0;
    const text = textOf(partIndex);
    if (text === undefined) continue;
    const start = utf16IndexOfUtf8(text, support.segment?.startIndex ?? 0);
    const end = Math.max(start, utf16IndexOfUtf8(text, support.segment?.endIndex ?? Number.MAX_SAFE_INTEGER));
    for (const chunkIndex of support.groundingChunkIndices ?? []) {
      const chunk = chunks[chunkIndex];
      const source = chunk?.web ?? chunk?.retrievedContext;
      if (!chunk || !source) continue;
      const annotation: Annotation = {
        kind: chunk.web ? 'web_search_citation' : 'file_citation',
        start,
        end,
        ...(source.text != null && { text: source.text }),
        ...(source.uri != null && { ref: source.uri }),
        ...(source.title != null && { title: source.title }),
      };
      byPart.set(partIndex, [...(byPart.get(partIndex) ?? []), annotation]);
    }
  }
  return byPart;
}
