import type { ContextItem, PromptLayout, PromptMode, ReasonRequest } from '../contracts/reason-request';
import type { MediaBlock, Message } from '../model/message';
import type { ModelWarning } from '../model/model-response';
import { datamarkChar } from './datamark-char';
import { documentSourcesOf } from './document-sources';
import { escapeData } from './escape-data';
import { contentOf, joinSegments, mediaBlockOf, type Segment } from './media-blocks';
import { serializeContent } from './normalize-content';
import { type NormalizeCounts, normalizeText } from './normalize-text';
import { policyText } from './policy-text';
import { reasoningBlockOf } from './reasoning-block';
import { renderMediaRegion, renderRegion } from './render-region';
import { renderToolResult } from './render-tool-result';
import { type Tally, tallyWarnings } from './tally-warnings';
import { writeRegionBody } from './write-region-body';

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

/** The trust an item renders with: anything but an explicit `trusted` is untrusted. */
export function trustOf(item: Pick<ContextItem, 'trust'>): 'trusted' | 'untrusted' {
  return item.trust === 'trusted' ? 'trusted' : 'untrusted';
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
  const strip = mode === 'tags+datamark' ? mark : undefined;
  const tally: Tally = { removed: [], neutralized: [], replaced: [], truncated: [] };
  const count = (source: string, counts: NormalizeCounts) => {
    if (counts.removed > 0) tally.removed.push([source, counts.removed]);
    if (counts.neutralized > 0) tally.neutralized.push([source, counts.neutralized]);
    if (counts.replaced > 0) tally.replaced.push([source, counts.replaced]);
  };
  const normalize = (source: string, input: string) => {
    const normalized = normalizeText(input, strip);
    count(source, normalized);
    return normalized.text;
  };

  // Trusted text goes in the system channel. Every other region goes in a user turn: untrusted ones,
  // and trusted ones that hold media, since no provider takes media in a system part.
  const trusted: string[] = [];
  const regions: Segment[][] = [];
  let untrustedItems = 0;
  const untrustedMedia: string[] = [];
  const origins = new Map<MediaBlock, number>();
  (request.context ?? []).forEach((item, index) => {
    const id = `c${index + 1}`;
    const written = writeRegionBody(serializeContent(item.content), mode, mark, options.maxItemChars);
    count(id, written);
    if (written.truncated) tally.truncated.push([id, options.maxItemChars ?? 0]);
    const trust = trustOf(item);
    const attributes = {
      id,
      label: item.label === undefined ? undefined : normalize(id, item.label),
      trust,
      truncated: written.truncated,
    };
    if (trust === 'untrusted') untrustedItems++;
    if (item.media !== undefined) {
      if (trust === 'untrusted') untrustedMedia.push(id);
      const blocks = item.media.map(mediaBlockOf);
      for (const block of blocks) origins.set(block, index);
      regions.push(renderMediaRegion(nonce, attributes, written.body, blocks));
    } else if (trust === 'trusted') trusted.push(renderRegion(nonce, attributes, written.body));
    else regions.push([renderRegion(nonce, attributes, written.body)]);
  });

  const turns: Message[] = [];
  const callNames = new Map<string, string>();
  let toolResults = 0;
  (request.conversation ?? []).forEach((turn, index) => {
    if (turn.role === 'tool') {
      toolResults++;
      const source = `turn ${index + 1}`;
      const tool = turn.name ?? callNames.get(turn.toolCallId) ?? 'tool';
      const maxChars = request.tools?.find((t) => t.name === tool)?.maxResultChars;
      const result = { callId: turn.toolCallId, tool, content: turn.content, maxChars };
      const message = renderToolResult(
        { ...result, status: turn.status, error: turn.error, source: turn.source },
        nonce,
        mode,
        (counts) => count(source, counts),
      );
      if (maxChars !== undefined && serializeContent(turn.content).length > maxChars)
        tally.truncated.push([source, maxChars]);
      turns.push(message);
      return;
    }
    if (turn.role === 'user') {
      // The user's own media follow the user's text, in the user's turn: not data, the user's words.
      const said = escapeData(normalize(`turn ${index + 1}`, turn.content));
      if (options.untrustedTurns && turn.media !== undefined) untrustedMedia.push(`turn ${index + 1}`);
      turns.push({ role: 'user', content: contentOf([said, ...(turn.media ?? []).map(mediaBlockOf)]) });
      return;
    }
    // Assistant turns come from the caller too, so they are no more trusted than user turns: a forged
    // `<|im_start|>system` in a "previous answer" must not reach a chat template as a role switch. Its
    // calls go in the provider's tool-call channel (never a system part), with the arguments as the
    // structured value the model produced.
    // Its reasoning is the answering model's own state, sent back to that model unchanged (a signature
    // covers the bytes) in the provider's reasoning field, never as text: reason/replayable-reasoning.ts
    // drops it for any other model.
    const content: Message['content'] = (turn.reasoning ?? []).map(reasoningBlockOf);
    if (turn.content !== undefined) {
      content.push({ type: 'text', text: escapeData(normalize(`turn ${index + 1}`, turn.content)) });
    }
    for (const call of turn.toolCalls ?? []) {
      callNames.set(call.id, call.name);
      content.push({ type: 'tool_call', id: call.id, name: call.name, args: call.arguments });
    }
    turns.push({ role: 'assistant', content });
  });
  // The model must meet the caller's request after the data, not only a label (docs/trust.md, measured
  // on real models): the untrusted regions, then the request restated. A conversation that ends with
  // the user's own turn already ends with what to answer: the regions go just before that turn, and
  // nothing is added after it. In the `after-data` layout the restatement is the only place the
  // caller's instructions appear; where there is no restatement they stay in the system message.
  // In the `data-turn` layout the regions get a user turn of their own, answered by Valve's fixed
  // reply, and the request (restated, or the user's own last turn) follows alone.
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
    const restated = restatedRequest(request, layout, (task) => escapeData(normalize('task', task)));
    if (dataTurn.length > 0) turns.push(...dataTurn, { role: 'user', content: text(restated) });
    else turns.push({ role: 'user', content: contentOf(joinSegments([...regions, [restated]], '\n\n')) });
  }
  const instructionsInSystem = layout === 'system' || !restates;
  const lead = instructionsInSystem ? request.instructions : '';
  const system = [lead, ...trusted, policyText(canary, mode, mark)].filter((p) => p !== '').join('\n\n');
  // A cache breakpoint can end only the caller's instructions, and only where they open the system
  // channel: every byte after them (trusted regions, the policy's canary) is this request's own. The
  // text is split where the mark goes, never changed: the blocks join to the same system text.
  const cached = request.cache?.instructions === true && lead !== '';
  const messages: Message[] = [
    {
      role: 'system',
      content: cached
        ? [
            { type: 'text', text: lead, cache: true },
            { type: 'text', text: system.slice(lead.length) },
          ]
        : text(system),
    },
    ...turns,
  ];
  return {
    messages,
    nonce,
    canary,
    mode,
    layout,
    warnings: [
      ...tallyWarnings(tally),
      ...mediaWarnings(untrustedMedia),
      ...(request.cache?.instructions === true && !cached ? [cacheDropped(request, layout)] : []),
    ],
    tainted: untrustedItems + toolResults > 0,
    untrustedMedia,
    documents: documentSourcesOf(messages, origins),
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
