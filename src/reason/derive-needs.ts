import { modalityOf } from '../contracts/media-part';
import {
  mediaPartsOf,
  type PrivacyLevel,
  privacyLevels,
  type ReasonRequest,
} from '../contracts/reason-request';
import type { MeasuredMedia } from '../media/measure-media';
import { estimateTokens } from '../model/estimate-tokens';
import type { Message } from '../model/message';
import type { ReasoningSetting } from '../model/model-request';
import type { MediaNeeds, MediaSourceNeed, Needs } from '../policy/plan-types';

/** Chat formats wrap each message in role markers; a generous allowance per message. */
const messageOverheadTokens = 8;

/**
 * What the request needs of a model: tools, JSON, the most sensitive privacy level, token counts,
 * the modalities its media carry. `media` is the media's own estimate (media/measure-media), made from
 * their bytes before planning; media blocks are not counted as text.
 */
export function deriveNeeds(
  request: ReasonRequest,
  messages: Message[],
  media: MeasuredMedia = { tokens: 0, priced: [] },
  unlabelled: PrivacyLevel = 'internal',
): Needs {
  return { ...needsOf(request, messages, media), privacy: privacyOf(request, unlabelled) };
}

/**
 * The most sensitive privacy level of any part of the request: each context item's, each turn's, and
 * for the instructions and the turns that carry none, the request's `privacy` or else `unlabelled`
 * (the deployment's DEFAULT_PRIVACY).
 */
export function privacyOf(request: ReasonRequest, unlabelled: PrivacyLevel): PrivacyLevel {
  const fallback = request.privacy ?? unlabelled;
  const levels = [
    fallback,
    ...(request.context ?? []).map((item) => item.privacy),
    ...(request.conversation ?? []).map((turn) => turn.privacy ?? fallback),
  ];
  return levels.reduce((most, level) =>
    privacyLevels.indexOf(level) > privacyLevels.indexOf(most) ? level : most,
  );
}

function needsOf(request: ReasonRequest, messages: Message[], media: MeasuredMedia): Omit<Needs, 'privacy'> {
  let inputTokens = media.tokens;
  for (const message of messages) {
    inputTokens += messageOverheadTokens;
    for (const block of message.content) {
      if (block.type === 'image' || block.type === 'audio' || block.type === 'file') continue;
      inputTokens += estimateTokens(block.type === 'text' ? block.text : JSON.stringify(block));
    }
  }
  for (const tool of request.tools ?? []) inputTokens += estimateTokens(JSON.stringify(tool));
  if (request.output?.schema) inputTokens += estimateTokens(JSON.stringify(request.output.schema));
  const choice = request.toolChoice;
  return {
    // A conversation with tool turns needs a model that reads the tool channel, even with no tools left.
    tools:
      (request.tools?.length ?? 0) > 0 || (request.conversation ?? []).some((turn) => turn.role === 'tool'),
    forcedToolCall: choice === 'required' || typeof choice === 'object',
    json: request.output?.format === 'json',
    inputTokens,
    unboundedTokens: sumOf(media.priced.filter((p) => p.basis === 'limit').map((p) => p.tokens)),
    maxOutputTokens: request.modelPolicy?.maxOutputTokens,
    ...(request.reasoning && { reasoning: reasoningOf(request) }),
    ...((request.cache?.tools === true || request.cache?.instructions === true) && { cacheWrites: true }),
    ...mediaNeedsOf(request, media),
  };
}

function mediaNeedsOf(request: ReasonRequest, measured: MeasuredMedia): { media?: MediaNeeds } {
  const parts = mediaPartsOf(request);
  if (parts.length === 0) return {};
  const sources = new Map<string, MediaSourceNeed>();
  for (const part of parts) {
    const need: MediaSourceNeed = {
      modality: modalityOf(part.type),
      kind: part.source.kind,
      mimeType: part.mimeType,
      ...(part.source.kind === 'fileId' && { provider: part.source.provider }),
    };
    sources.set(JSON.stringify(need), need);
  }
  const modalities = [...new Set([...sources.values()].map((s) => s.modality))].sort();
  return { media: { modalities, sources: [...sources.values()], priced: measured.priced } };
}

/** The caller's `reasoning` in the model interface's names; each attempt resolves it for its model. */
export function reasoningOf(request: ReasonRequest): ReasoningSetting | undefined {
  const reasoning = request.reasoning;
  if (reasoning === undefined) return undefined;
  const setting: ReasoningSetting = {};
  if (reasoning.enabled !== undefined) setting.enabled = reasoning.enabled;
  if (reasoning.effort !== undefined) setting.effort = reasoning.effort;
  if (reasoning.budgetTokens !== undefined) setting.budget_tokens = reasoning.budgetTokens;
  if (reasoning.summary !== undefined) setting.summary = reasoning.summary;
  return setting;
}

function sumOf(values: number[]): number {
  return values.reduce((sum, value) => sum + value, 0);
}
