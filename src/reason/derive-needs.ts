import { type PrivacyLevel, privacyLevels, type ReasonRequest } from '../contracts/reason-request';
import type { RequestMedia } from '../media/read-media';
import { estimateTokens } from '../model/estimate-tokens';
import type { Message } from '../model/message';
import type { ReasoningSetting } from '../model/model-request';
import type { MediaNeeds, Needs } from '../policy/plan-types';

/** Chat formats wrap each message in role markers; a generous allowance per message. */
const messageOverheadTokens = 8;

/**
 * What the request needs of a model: tools, JSON, the most sensitive privacy level, token counts,
 * the modalities its media carry. `media` is the request's media as read once (media/read-media), with
 * their estimate from their bytes once measured; media blocks are not counted as text.
 */
export function deriveNeeds(
  request: ReasonRequest,
  messages: Message[],
  media: RequestMedia,
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

function needsOf(request: ReasonRequest, messages: Message[], media: RequestMedia): Omit<Needs, 'privacy'> {
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
    ...mediaNeedsOf(media),
  };
}

function mediaNeedsOf(media: RequestMedia): { media?: MediaNeeds } {
  if (media.parts.length === 0) return {};
  return { media: { modalities: media.modalities, sources: media.sources, priced: media.priced } };
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
