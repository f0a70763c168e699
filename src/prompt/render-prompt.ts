import type { PromptLayout, PromptMode, ReasonRequest } from '../contracts/reason-request';
import type { Message } from '../model/message';
import type { ModelWarning } from '../model/model-response';
import { datamarkChar } from './datamark-char';
import { documentSourcesOf } from './document-sources';
import { escapeData } from './escape-data';
import { contentOf, joinSegments, type Segment } from './media-blocks';
import { policyText } from './policy-text';
import { renderContext } from './render-context';
import { renderConversation } from './render-conversation';
import { renderTally } from './render-tally';
import { tallyWarnings } from './tally-warnings';

export { trustOf } from './render-context';

export interface RenderOptions {
  /** 32 lowercase hex characters, fresh for each request, occurring in no input (see `drawNonce`). */
  nonce: string;
  canary: string;
  /** How regions are marked; default `tags`. */
  mode?: PromptMode;
  /** Where the caller's instructions go when the request is restated after the data; default `system`. */
  layout?: PromptLayout;
  /** Cut each context item's normalized text to this many UTF-16 units (reported in warnings). */
  maxItemChars?: number;
  /**
   * The conversation's turns came from someone other than the caller (the OpenAI door): a user turn's
   * media are then untrusted media too, named in `untrustedMedia` as `turn N`.
   */
  untrustedTurns?: boolean;
}

export interface RenderedPrompt {
  messages: Message[];
  nonce: string;
  canary: string;
  mode: PromptMode;
  layout: PromptLayout;
  warnings: ModelWarning[];
  /** True when any untrusted context or tool result was present: every tool call made is then tainted. */
  tainted: boolean;
  /** Where untrusted media reached the prompt: context items (`c2`) and, from a door, turns (`turn 3`). */
  untrustedMedia: string[];
  /**
   * For each `file` block of `messages`, in order: the index of the context item it came from, or
   * null for a turn's file. A provider's citation of its n-th document names the item through this.
   */
  documents: (number | null)[];
}

function text(content: string): Message['content'] {
  return [{ type: 'text', text: content }];
}

/**
 * The assistant's reply Valve writes after the untrusted regions' own user turn in the `data-turn`
 * layout, so that the caller's request comes as the answer to a question and a request repeated inside
 * the data reads as part of what was read. Chosen by measurement on a small model (docs/trust.md).
 */
export const dataTurnReply = 'I have read it. What would you like me to do with it?';

/** Instructions longer than this are not restated after the data: the label and a pointer are. */
export const restateLimit = 4000;

/**
 * The caller's request as the final user turn restates it: its instructions, or the task's label when
 * they are long or empty. In the `after-data` layout the instructions are there and nowhere else, so
 * they are given whole (the label only when there are none).
 */
function restatedRequest(
  request: ReasonRequest,
  layout: PromptLayout,
  label: (task: string) => string,
): string {
  const instructions = request.instructions.trim();
  const whole = layout !== 'system';
  if (instructions !== '' && (whole || instructions.length <= restateLimit)) return instructions;
  const task = `Task: ${label(request.task)}.`;
  return whole ? task : `${task} Follow the instructions in the system message.`;
}

/**
 * Renders a Reason request into neutral messages (docs/trust.md): the caller's instructions, the trusted
 * regions and Valve's short policy in the system channel; the conversation in order, every user and
 * assistant turn normalized and escaped, tool results as untrusted regions in the tool channel, tool
 * calls in the assistant's; the untrusted regions in a user turn followed by the caller's request
 * restated (or, when the conversation ends with the user's own turn, just before that turn). Pure and
 * deterministic: the same request and options give byte-identical messages.
 */
export function renderPrompt(request: ReasonRequest, options: RenderOptions): RenderedPrompt {
  const { nonce, canary } = options;
  const mode = options.mode ?? 'tags';
  const layout = options.layout ?? 'system';
  const mark = datamarkChar(nonce);
  const tally = renderTally(mode === 'tags+datamark' ? mark : undefined);
  const context = renderContext(
    request.context ?? [],
    { nonce, mode, mark, maxItemChars: options.maxItemChars },
    tally,
  );
  const conversation = renderConversation(
    request.conversation ?? [],
    { nonce, mode, tools: request.tools, untrustedTurns: options.untrustedTurns },
    tally,
  );
  const turns = conversation.turns;
  const restate = () => restatedRequest(request, layout, (task) => escapeData(tally.normalize('task', task)));
  const restates = placeRegions(turns, context.regions, layout, restate);
  const lead = layout === 'system' || !restates ? request.instructions : '';
  const system = [lead, ...context.trusted, policyText(canary, mode, mark)]
    .filter((p) => p !== '')
    .join('\n\n');
  // A cache breakpoint can end only the caller's instructions, and only where they open the system
  // channel: every byte after them (trusted regions, the policy's canary) is this request's own.
  const cached = request.cache?.instructions === true && lead !== '';
  const messages: Message[] = [systemMessage(system, cached ? lead : ''), ...turns];
  const untrustedMedia = [...context.untrustedMedia, ...conversation.untrustedMedia];
  return {
    messages,
    nonce,
    canary,
    mode,
    layout,
    warnings: [
      ...tallyWarnings(tally.tally),
      ...mediaWarnings(untrustedMedia),
      ...(request.cache?.instructions === true && !cached ? [cacheDropped(request, layout)] : []),
    ],
    tainted: context.untrustedItems + conversation.toolResults > 0,
    untrustedMedia,
    documents: documentSourcesOf(messages, context.origins),
  };
}

/**
 * Puts the untrusted regions into the turns and says whether the request is restated after them.
 * The model must meet the caller's request after the data, not only a label (docs/trust.md, measured
 * on real models): the untrusted regions, then the request restated. A conversation that ends with
 * the user's own turn already ends with what to answer: the regions go just before that turn, and
 * nothing is added after it. In the `after-data` layout the restatement is the only place the
 * caller's instructions appear; where there is no restatement they stay in the system message.
 * In the `data-turn` layout the regions get a user turn of their own, answered by Valve's fixed
 * reply, and the request (restated, or the user's own last turn) follows alone.
 */
function placeRegions(
  turns: Message[],
  regions: Segment[][],
  layout: PromptLayout,
  restate: () => string,
): boolean {
  const restates = turns.at(-1)?.role !== 'user';
  const data = joinSegments(regions, '\n\n');
  const dataTurn: Message[] =
    layout === 'data-turn' && regions.length > 0
      ? [
          { role: 'user', content: contentOf(data) },
          { role: 'assistant', content: text(dataTurnReply) },
        ]
      : [];
  if (!restates) {
    if (dataTurn.length > 0) turns.splice(-1, 0, ...dataTurn);
    else if (regions.length > 0) turns.splice(-1, 0, { role: 'user', content: contentOf(data) });
  } else {
    const restated = restate();
    if (dataTurn.length > 0) turns.push(...dataTurn, { role: 'user', content: text(restated) });
    else turns.push({ role: 'user', content: contentOf(joinSegments([...regions, [restated]], '\n\n')) });
  }
  return restates;
}

/**
 * The system message; with a cached lead, split where the cache mark goes, never changed: the blocks
 * join to the same system text.
 */
function systemMessage(system: string, cachedLead: string): Message {
  return {
    role: 'system',
    content:
      cachedLead !== ''
        ? [
            { type: 'text', text: cachedLead, cache: true },
            { type: 'text', text: system.slice(cachedLead.length) },
          ]
        : text(system),
  };
}

/** Says when untrusted media reached the model: no rendering can mark the text inside an image. */
function mediaWarnings(ids: string[]): ModelWarning[] {
  if (ids.length === 0) return [];
  return [
    {
      code: 'prompt.untrusted_media',
      message: `Untrusted media reached the model (${ids.join(', ')}): text inside an image, a PDF or audio cannot be escaped or marked, so only the model's reading keeps it from acting as instructions (docs/trust.md).`,
    },
  ];
}

/** Says why the breakpoint asked for at the end of the instructions was not sent. */
function cacheDropped(request: ReasonRequest, layout: PromptLayout): ModelWarning {
  const why =
    request.instructions === ''
      ? 'the request has no instructions'
      : `in the ${layout} layout they come after the data, and nothing in the system channel repeats from one request to the next`;
  return {
    code: 'prompt.cache_dropped',
    message: `Valve sent no cache breakpoint at the end of the instructions (cache.instructions): ${why} (docs/reason-api.md#prompt-caching).`,
  };
}
