// A citation on answer text, in the neutral model interface (seed 001 `LucentAnnotation`).

/** What a citation points at: a URL, a document the request sent, or a web search result. */
export type AnnotationKind = 'url' | 'file_citation' | 'web_search_citation';

/**
 * One citation. `start` and `end` are UTF-16 code unit offsets (JavaScript string indices, end
 * exclusive) into the text they annotate: on a text block, that block's text; on a stream's
 * `annotations` delta, the message's text as streamed so far (every text delta joined).
 */
export interface Annotation {
  kind: AnnotationKind;
  /** The source passage cited, when the provider quotes it. */
  text?: string;
  /** The URL cited, or a provider's file id. */
  ref?: string;
  /** The source's title, when the provider gives one. */
  title?: string;
  start?: number;
  end?: number;
  /**
   * For a citation of a document the request sent: its position, from 0, among the request's `file`
   * blocks in message order (Anthropic's `document_index` counts the same blocks).
   */
  document_index?: number;
}

/** Annotations moved by `offset` code units: a block's annotations as offsets into a longer text. */
export function shiftAnnotations(annotations: readonly Annotation[], offset: number): Annotation[] {
  return annotations.map((annotation) => ({
    ...annotation,
    ...(annotation.start !== undefined && { start: annotation.start + offset }),
    ...(annotation.end !== undefined && { end: annotation.end + offset }),
  }));
}
