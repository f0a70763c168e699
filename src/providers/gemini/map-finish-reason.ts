import type { FinishReason } from '../../model/model-response';

const filtered = new Set(['SAFETY', 'RECITATION', 'BLOCKLIST', 'PROHIBITED_CONTENT', 'SPII', 'IMAGE_SAFETY']);

/**
 * The finish reasons by which Gemini declines to answer (https://ai.google.dev/api/generate-content#FinishReason):
 * a refusal, not a cut answer. RECITATION stops an answer that quotes its sources; that stays a filter.
 */
const refusing = new Set(['SAFETY', 'BLOCKLIST', 'PROHIBITED_CONTENT', 'SPII', 'IMAGE_SAFETY']);

export function isGeminiRefusal(raw: string | null | undefined): raw is string {
  return raw != null && refusing.has(raw);
}

/**
 * Gemini's `finishReason` in Valve's terms. Gemini says `STOP` even when it called a function, so a
 * stop with function calls is `tool_calls`. Unknown or missing is `other`, never `stop`.
 */
export function mapGeminiFinishReason(raw: string | null | undefined, calledTools: boolean): FinishReason {
  if (raw === 'STOP') return calledTools ? 'tool_calls' : 'stop';
  if (raw === 'MAX_TOKENS') return 'length';
  if (raw && filtered.has(raw)) return 'content_filter';
  return 'other';
}
