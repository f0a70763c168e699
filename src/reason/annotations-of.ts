import type { ReasonRequest } from '../contracts/reason-request';
import type { Annotation as ReasonAnnotation } from '../contracts/reason-response';
import type { Annotation } from '../model/annotation';

/** Where a block's annotations land: the block's offset in the answer text and the block's length. */
export interface AnnotatedSpan {
  offset: number;
  length: number;
}

function clamp(value: number, low: number, high: number): number {
  return Math.min(Math.max(value, low), high);
}

/**
 * A model's citations as the Reason answer's `output.annotations`: offsets moved from the block into
 * the answer text (kept inside the block; a citation without offsets covers the whole block), and a
 * citation of the n-th document sent naming the context item that carried it (`documents`, from the
 * rendered prompt) with the item's label as `ref`.
 */
export function reasonAnnotationsOf(
  annotations: readonly Annotation[],
  span: AnnotatedSpan,
  request: Pick<ReasonRequest, 'context'>,
  documents: readonly (number | null)[] = [],
): ReasonAnnotation[] {
  return annotations.map((annotation) => {
    const start = clamp(annotation.start ?? 0, 0, span.length);
    const end = clamp(annotation.end ?? span.length, start, span.length);
    const item = annotation.document_index === undefined ? undefined : documents[annotation.document_index];
    const label = typeof item === 'number' ? request.context?.[item]?.label : undefined;
    const ref = label ?? annotation.ref;
    return {
      kind: annotation.kind,
      start: span.offset + start,
      end: span.offset + end,
      ...(annotation.text !== undefined && { text: annotation.text }),
      ...(ref !== undefined && { ref }),
      ...(annotation.title !== undefined && { title: annotation.title }),
      ...(typeof item === 'number' && { contextItem: item }),
    };
  });
}
