import { z } from 'zod';
import type { Annotation } from '../../model/annotation';

// Citations on Anthropic text blocks (https://platform.claude.com/docs/en/build-with-claude/citations,
// .../tools/web-search-tool): `char_location`, `page_location` and `content_block_location` point into a
// document the request sent (`document_index` counts its document blocks), `web_search_result_location`
// into a web search result. A text block's citations cite that whole block.

export const anthropicCitationSchema = z.looseObject({
  type: z.string(),
  cited_text: z.string().nullish(),
  document_index: z.number().int().min(0).nullish(),
  document_title: z.string().nullish(),
  url: z.string().nullish(),
  title: z.string().nullish(),
  source: z.string().nullish(),
});
export type AnthropicCitation = z.infer<typeof anthropicCitationSchema>;

/** One citation as a neutral annotation over `length` code units of the block's text, from `start`. */
export function anthropicAnnotationOf(
  citation: AnthropicCitation,
  start: number,
  length: number,
): Annotation {
  const span = { start, end: start + length };
  const text = citation.cited_text ?? undefined;
  if (citation.type === 'web_search_result_location') {
    return {
      kind: 'web_search_citation',
      ...span,
      ...(text !== undefined && { text }),
      ...(citation.url != null && { ref: citation.url }),
      ...(citation.title != null && { title: citation.title }),
    };
  }
  const title = citation.document_title ?? citation.title ?? undefined;
  return {
    kind: 'file_citation',
    ...span,
    ...(text !== undefined && { text }),
    ...(citation.source != null && { ref: citation.source }),
    ...(title !== undefined && { title }),
    ...(citation.document_index != null && { document_index: citation.document_index }),
  };
}
