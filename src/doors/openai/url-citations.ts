import type { Annotation } from '../../contracts/reason-response';
import { codePointIndexOfUtf16 } from '../../encoding/code-point-index';

// The answer's citations in OpenAI's shapes. OpenAI's `url_citation` names a URL, so only citations
// whose reference is one are carried; a citation of a context item (and any other) stays in
// `valve.output.annotations`. OpenAI counts `start_index` and `end_index` in characters (code points),
// Valve in UTF-16 code units: they are converted against the message text.

interface UrlCitation {
  start_index: number;
  end_index: number;
  url: string;
  title: string;
}

function urlCitationsOf(annotations: readonly Annotation[] | undefined, text: string): UrlCitation[] {
  return (annotations ?? []).flatMap((annotation) => {
    const url = annotation.ref;
    if (annotation.contextItem !== undefined || url === undefined || !/^https?:\/\//i.test(url)) return [];
    return [
      {
        start_index: codePointIndexOfUtf16(text, annotation.start),
        end_index: codePointIndexOfUtf16(text, annotation.end),
        url,
        title: annotation.title ?? url,
      },
    ];
  });
}

/** Chat Completions `message.annotations` (and a chunk's `delta.annotations`). */
export function chatAnnotationsOf(annotations: readonly Annotation[] | undefined, text: string) {
  return urlCitationsOf(annotations, text).map((citation) => ({
    type: 'url_citation' as const,
    url_citation: citation,
  }));
}

/** Responses `output_text.annotations`, as `response.output_text.annotation.added` sends them too. */
export function responsesAnnotationsOf(annotations: readonly Annotation[] | undefined, text: string) {
  return urlCitationsOf(annotations, text).map((citation) => ({
    type: 'url_citation' as const,
    ...citation,
  }));
}
