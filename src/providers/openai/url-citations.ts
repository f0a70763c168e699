import { z } from 'zod';
import { utf16IndexOfCodePoint } from '../../encoding/code-point-index';
import type { Annotation } from '../../model/annotation';

// A Chat Completions message's `annotations` (https://platform.openai.com/docs/api-reference/chat/object,
// .../guides/tools-web-search?api-mode=chat): `url_citation`s with the cited URL and title and the span
// of the message text they support, `start_index`/`end_index` counted in characters (code points). A
// stream sends them in a chunk's `delta.annotations`, for the whole message.

export const openaiAnnotationSchema = z.looseObject({
  type: z.string(),
  url_citation: z
    .looseObject({
      start_index: z.number().int().min(0).nullish(),
      end_index: z.number().int().min(0).nullish(),
      url: z.string().nullish(),
      title: z.string().nullish(),
    })
    .nullish(),
});
export type OpenAIAnnotation = z.infer<typeof openaiAnnotationSchema>;

/** The message's `url_citation`s as annotations, offsets into `text` in UTF-16 code units. */
export function openaiAnnotationsOf(
  annotations: readonly OpenAIAnnotation[] | null | undefined,
  text: string,
): Annotation[] {
  return (annotations ?? []).flatMap((annotation) => {
    const citation = annotation.url_citation;
    if (annotation.type !== 'url_citation' || !citation) return [];
    const start = utf16IndexOfCodePoint(text, citation.start_index ?? 0);
    const end = utf16IndexOfCodePoint(text, citation.end_index ?? Number.MAX_SAFE_INTEGER);
    return [
      {
        kind: 'url' as const,
        start,
        end: Math.max(start, end),
        ...(citation.url != null && { ref: citation.url }),
        ...(citation.title != null && { title: citation.title }),
      },
    ];
  });
}
