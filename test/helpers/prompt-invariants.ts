import { modalityOf } from '../../src/contracts/media-part';
import type {
  ContextItem,
  ConversationTurn,
  PromptMode,
  ReasonRequest,
} from '../../src/contracts/reason-request';
import { acceptsMimeType, acceptsSource } from '../../src/model/media-sources';
import type { Message } from '../../src/model/message';
import type { CallOptions, ModelAdapter } from '../../src/model/model-adapter';
import { providerKinds } from '../../src/model/provider-kind';
import { datamarkChar } from '../../src/prompt/datamark-char';
import { decodeRegionBody } from '../../src/prompt/encode-region-body';
import { escapeData } from '../../src/prompt/escape-data';
import { findInvisible, removeInvisible } from '../../src/prompt/invisible-characters';
import { mediaBlockOf, mediaPlaceholder } from '../../src/prompt/media-blocks';
import { normalizeContent, serializeContent } from '../../src/prompt/normalize-content';
import { normalizeText } from '../../src/prompt/normalize-text';
import { parseRegions } from '../../src/prompt/parse-regions';
import { type RenderedPrompt, type RenderOptions, restateLimit } from '../../src/prompt/render-prompt';
import type { RepairFinding } from '../../src/prompt/render-repair';
import { truncateText } from '../../src/prompt/truncate-text';

// The invariant checker of trust.md (1–4, 6–11, 14, and 15 for the JSON repair request) over the final wire body of every adapter. It
// reports failures instead of throwing, so the mutation test can assert that it does report them.

export type Renderer = (request: ReasonRequest, options: RenderOptions) => RenderedPrompt;

export interface Failure {
  invariant: number;
  message: string;
}

export interface RenderCase {
  request: ReasonRequest;
  options: RenderOptions & { mode: PromptMode };
  /** A marker placed in every untrusted item; it must never reach an authority channel. */
  sentinel: string;
}

/** Roles whose content carries authority, and keys under which providers put the system channel. */
const authorityRoles = new Set(['system', 'developer', 'assistant', 'model']);
const systemRoles = new Set(['system', 'developer']);
const authorityKeys = new Set(['system', 'systemInstruction', 'system_instruction', 'instructions']);

interface WireString {
  /** A string; or, for an array of content parts, its text parts joined with U+FFFC for each other part. */
  text: string;
  /** In a system/developer channel or an assistant turn. */
  authority: boolean;
  /** In a system/developer channel: where not even the model's own earlier output may go. */
  system: boolean;
  /** A content part that is not text (media, a tool call), in place of a string. */
  part?: boolean;
}

/** A content part of text: `{type: 'text', text}` (OpenAI, Anthropic) or `{text}` (Gemini). */
function isTextPart(value: unknown): value is { text: string } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const record = value as Record<string, unknown>;
  return typeof record.text === 'string' && (record.type === undefined || record.type === 'text');
}

/** An array of content parts: objects, at least one of them text. */
function isPartList(value: unknown[]): boolean {
  return (
    value.some(isTextPart) &&
    value.every((part) => typeof part === 'object' && part !== null && !Array.isArray(part))
  );
}

/** Every string of a JSON value, marked when it sits in a system/developer channel or an assistant turn. */
export function wireStrings(
  value: unknown,
  authority = false,
  out: WireString[] = [],
  system = authority,
): WireString[] {
  if (typeof value === 'string') out.push({ text: value, authority, system });
  else if (Array.isArray(value) && isPartList(value)) {
    // A message's parts read as one text, each other part as U+FFFC: a region may open in one text
    // part and close in another, with media parts between (docs/trust.md).
    out.push({
      text: value.map((part) => (isTextPart(part) ? part.text : mediaPlaceholder)).join(''),
      authority,
      system,
    });
    for (const part of value) {
      if (isTextPart(part)) continue;
      out.push({ text: '', authority, system, part: true });
      wireStrings(part, authority, out, system);
    }
  } else if (Array.isArray(value)) for (const item of value) wireStrings(item, authority, out, system);
  else if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    const role = typeof record.role === 'string' ? record.role : '';
    const here = authority || authorityRoles.has(role);
    const hereSystem = system || systemRoles.has(role);
    for (const [key, child] of Object.entries(record)) {
      const systemKey = authorityKeys.has(key);
      wireStrings(child, here || systemKey, out, hereSystem || systemKey);
    }
  }
  return out;
}

const testCallOptions: CallOptions = {
  model: 'invariant-check',
  signal: new AbortController().signal,
  fetch: () => Promise.reject(new Error('the invariant check never sends a request')),
  apiKey: 'test-key',
};

/** An adapter's wire body for the rendered prompt, as the JSON it would put on the wire. */
export function wireBodyOf(adapter: ModelAdapter, prompt: RenderedPrompt): unknown {
  if (!adapter.toWireBody) throw new Error(`adapter ${adapter.kind} has no toWireBody`);
  const body = adapter.toWireBody({ messages: prompt.messages }, testCallOptions);
  return JSON.parse(JSON.stringify(body));
}

/** The request with the sentinel put into every untrusted item: as text, as a key's value, as an element. */
export function withSentinel(request: ReasonRequest, sentinel: string): ReasonRequest {
  const place = (item: ContextItem): ContextItem => {
    if (item.trust === 'trusted') return item;
    if (item.media !== undefined) {
      // An untrusted part's filename is the caller's data too: it may reach the wire, never a system part.
      const media = item.media.map((part) => ({ ...part, filename: sentinel }));
      item = { ...item, media };
    }
    const content = item.content;
    if (typeof content === 'string') return { ...item, content: `${content} ${sentinel}` };
    if (Array.isArray(content)) return { ...item, content: [...content, sentinel] };
    return { ...item, content: { ...(content ?? {}), sentinel } };
  };
  const placeInTurn = (turn: ConversationTurn): ConversationTurn => {
    if (turn.role === 'tool') {
      const content = turn.content;
      if (typeof content === 'string') return { ...turn, content: `${content} ${sentinel}` };
      if (Array.isArray(content)) return { ...turn, content: [...content, sentinel] };
      return { ...turn, content: { ...content, sentinel } };
    }
    if (turn.role !== 'assistant' || !turn.toolCalls) return turn;
    const marker = argumentSentinelOf(sentinel);
    return {
      ...turn,
      toolCalls: turn.toolCalls.map((call) => ({ ...call, arguments: { ...call.arguments, marker } })),
    };
  };
  return {
    ...request,
    context: request.context?.map(place),
    conversation: request.conversation?.map(placeInTurn),
  };
}

/**
 * The marker put into tool-call arguments: model output, allowed in the assistant's tool-call channel
 * but never in a system part. Distinct from the sentinel, which may not reach assistant turns either.
 */
export function argumentSentinelOf(sentinel: string): string {
  return `ARG${sentinel.slice(3)}`;
}

/** What a region must hold, by its id: a context item `c<n>` or a tool result `t-<callId>`. */
interface ExpectedRegion {
  trust: 'trusted' | 'untrusted';
  label?: string;
  text: string;
  truncated: boolean;
  /** The MIME types of the item's media parts, which the region holds after its text. */
  media?: string[];
}

function expectedRegions(c: RenderCase): Map<string, ExpectedRegion> {
  const regions = new Map<string, ExpectedRegion>();
  (c.request.context ?? []).forEach((item, index) => {
    const label = item.label === undefined ? undefined : normalizeText(item.label, markOf(c)).text;
    const trust = item.trust === 'trusted' ? 'trusted' : 'untrusted';
    const media = item.media?.map((part) => part.mimeType);
    regions.set(`c${index + 1}`, { trust, label, ...expectedText(item, c), ...(media && { media }) });
  });
  const names = new Map<string, string>();
  for (const turn of c.request.conversation ?? []) {
    if (turn.role === 'assistant') for (const call of turn.toolCalls ?? []) names.set(call.id, call.name);
    if (turn.role !== 'tool') continue;
    regions.set(`t-${turn.toolCallId}`, {
      trust: 'untrusted',
      label: `result of ${turn.name ?? names.get(turn.toolCallId) ?? 'tool'}`,
      text: normalizeContent(turn.content, markOf(c)).text,
      truncated: false,
    });
  }
  return regions;
}

function markOf(c: RenderCase): string | undefined {
  return c.options.mode === 'tags+datamark' ? datamarkChar(c.options.nonce) : undefined;
}

function expectedText(item: ContextItem, c: RenderCase): { text: string; truncated: boolean } {
  const mark = c.options.mode === 'tags+datamark' ? datamarkChar(c.options.nonce) : undefined;
  const text = normalizeContent(item.content, mark).text;
  return c.options.maxItemChars === undefined
    ? { text, truncated: false }
    : truncateText(text, c.options.maxItemChars);
}

/** Invisible characters the inputs carry (and datamark's character), counted independently of the renderer. */
/** Whether the final user turn restates the request (the conversation does not end with the user). */
function endsWithRestatement(request: ReasonRequest): boolean {
  return request.conversation?.at(-1)?.role !== 'user';
}

function restatesTaskLabel(request: ReasonRequest, layout: RenderOptions['layout']): boolean {
  const instructions = request.instructions.trim();
  const long = (layout ?? 'system') === 'system' && instructions.length > restateLimit;
  return endsWithRestatement(request) && (instructions === '' || long);
}

/**
 * The roles the layout gives (docs/trust.md): the system message, the conversation in order with a
 * user turn of untrusted regions just before its final user turn, or else a final user turn (regions
 * and the restated request) after it. In the `data-turn` layout the regions' user turn is followed by
 * Valve's assistant reply, and a restated request has a user turn of its own.
 */
function expectedRoles(
  request: ReasonRequest,
  layout: RenderOptions['layout'],
): { roles: string[]; messageOfTurn: number[] } {
  const turns = request.conversation ?? [];
  // Untrusted regions, and trusted ones holding media, go in a user turn.
  const untrusted = (request.context ?? []).some(
    (item) => item.trust !== 'trusted' || item.media !== undefined,
  );
  const dataTurn = layout === 'data-turn' && untrusted;
  const roles = ['system'];
  const messageOfTurn: number[] = [];
  turns.forEach((turn, index) => {
    if (index === turns.length - 1 && !endsWithRestatement(request) && untrusted)
      roles.push(...(dataTurn ? ['user', 'assistant'] : ['user']));
    messageOfTurn.push(roles.length);
    roles.push(turn.role);
  });
  if (endsWithRestatement(request)) roles.push(...(dataTurn ? ['user', 'assistant', 'user'] : ['user']));
  return { roles, messageOfTurn };
}

function expectedRemovals(c: RenderCase): number {
  const mark = c.options.mode === 'tags+datamark' ? datamarkChar(c.options.nonce) : undefined;
  const count = (text: string) =>
    removeInvisible(text).removed + (mark === undefined ? 0 : text.split(mark).length - 1);
  // The task's label is rendered only where the request is restated and the instructions are not.
  let total = restatesTaskLabel(c.request, c.options.layout) ? count(c.request.task) : 0;
  for (const item of c.request.context ?? []) {
    total += count(serializeContent(item.content));
    if (item.label !== undefined) total += count(item.label);
  }
  for (const turn of c.request.conversation ?? []) {
    if (turn.role === 'tool')
      total += count(typeof turn.content === 'string' ? turn.content : JSON.stringify(turn.content));
    else if (turn.content !== undefined) total += count(turn.content);
  }
  return total;
}

const badEntity = /&(?!(?:amp|lt|gt|quot|#x[0-9A-F]{1,6});)/;

function checkWire(c: RenderCase, prompt: RenderedPrompt, wire: unknown, where: string): Failure[] {
  const failures: Failure[] = [];
  const fail = (invariant: number, message: string) =>
    failures.push({ invariant, message: `${where}: ${message}` });
  const { nonce, mode } = c.options;
  const mark = datamarkChar(nonce);
  const expectedById = expectedRegions(c);
  const argumentSentinel = argumentSentinelOf(c.sentinel);
  const seen = new Map<string, number>();
  for (const { text, authority, system, part } of wireStrings(wire)) {
    if (part && system) fail(16, 'a media or tool part is in a system part');
    if (authority && text.includes(c.sentinel)) fail(1, 'the sentinel appears in an authority channel');
    if (system && text.includes(argumentSentinel)) fail(1, 'a tool-call argument appears in a system part');
    const { regions, errors } = parseRegions(text, nonce);
    for (const error of errors) fail(3, `region syntax: ${error}`);
    for (const region of regions) {
      const id = region.attributes.id ?? '';
      seen.set(id, (seen.get(id) ?? 0) + 1);
      const expected = expectedById.get(id);
      if (!expected) {
        fail(2, `a region with unknown id ${JSON.stringify(id)}`);
        continue;
      }
      const { trust, label } = expected;
      if (region.attributes.label !== label) fail(3, `${id} label does not round-trip`);
      // Only a trusted region carries the attribute; none means untrusted.
      if ((region.attributes.trust ?? 'untrusted') !== trust)
        fail(11, `${id} renders trust=${region.attributes.trust}`);
      if (region.attributes.trust !== undefined && region.attributes.trust !== 'trusted')
        fail(11, `${id} renders trust=${region.attributes.trust}`);
      if (authority && trust === 'untrusted') fail(1, `untrusted ${id} is in an authority channel`);
      // Trusted text is in the system channel; a region with media is in a user turn on every provider.
      if (!authority && trust === 'trusted' && expected.media === undefined)
        fail(2, `trusted ${id} is outside the system channel`);
      if (authority && expected.media !== undefined) fail(16, `${id} holds media in an authority channel`);
      if (region.attributes.media !== expected.media?.join(' '))
        fail(16, `${id} lists media ${region.attributes.media} instead of ${expected.media?.join(' ')}`);
      // A region with media: its text, a newline, and one U+FFFC per part (each a part of its own).
      const tail = expected.media === undefined ? '' : `\n${mediaPlaceholder.repeat(expected.media.length)}`;
      if (!region.body.endsWith(tail)) fail(16, `${id} does not hold its media parts after its text`);
      const body = region.body.slice(0, region.body.length - tail.length);
      if (/[<>]/.test(body)) fail(4, `${id} has a raw < or > in its body`);
      if (mode !== 'json' && mode !== 'tags+base64' && badEntity.test(body)) {
        fail(14, `${id} has a broken entity`);
      }
      if (mode === 'tags+datamark' && /\s/.test(body)) fail(6, `${id} has whitespace in its body`);
      if (mode === 'tags+lines' && /[\n\v\f\r\u2028\u2029]/.test(body))
        fail(6, `${id} has a line break in its body`);
      let decoded: string;
      try {
        decoded = decodeRegionBody(body, mode, mark);
      } catch (error) {
        fail(mode === 'json' ? 4 : mode === 'tags+base64' ? 7 : 3, `${id} does not decode: ${String(error)}`);
        continue;
      }
      if (decoded !== expected.text) fail(3, `${id} does not round-trip`);
      if (mode === 'tags+base64') {
        const bytes = new TextEncoder().encode(expected.text);
        const binary = atob(body);
        if (binary.length !== bytes.length || [...bytes].some((b, i) => binary.charCodeAt(i) !== b)) {
          fail(7, `${id} base64 is not the UTF-8 bytes of the item`);
        }
      }
      if ((region.attributes.truncated === 'true') !== expected.truncated) fail(14, `${id} truncation flag`);
      if (findInvisible(decoded) || findInvisible(body)) {
        fail(8, `${id} keeps an invisible or bidi character`);
      }
      if (authority && decoded.includes(c.sentinel))
        fail(1, `the sentinel is inside ${id} in an authority channel`);
    }
  }
  for (const id of expectedById.keys()) {
    const count = seen.get(id) ?? 0;
    if (count !== 1) fail(2, `${id} is in ${count} regions, not exactly one`);
  }
  const removals = expectedRemovals(c);
  const warning = prompt.warnings.find((w) => w.code === 'prompt.characters_removed');
  const reported = warning ? Number(/Removed (\d+)/.exec(warning.message)?.[1]) : 0;
  if (reported !== removals) fail(8, `reported ${reported} removed characters, the inputs had ${removals}`);
  return failures;
}

function checkMessages(c: RenderCase, prompt: RenderedPrompt): Failure[] {
  const failures: Failure[] = [];
  const roles = prompt.messages.map((m) => m.role);
  const turns = c.request.conversation ?? [];
  const { roles: expected, messageOfTurn } = expectedRoles(c.request, c.options.layout);
  if (JSON.stringify(roles) !== JSON.stringify(expected)) {
    failures.push({ invariant: 9, message: `roles ${roles.join(',')} instead of ${expected.join(',')}` });
  }
  turns.forEach((turn, index) => {
    const message = prompt.messages[messageOfTurn[index] ?? -1];
    const text = message?.content.map((b) => (b.type === 'text' ? b.text : '')).join('') ?? '';
    const mark = c.options.mode === 'tags+datamark' ? datamarkChar(c.options.nonce) : undefined;
    if (turn.role !== 'tool' && text !== escapeData(normalizeText(turn.content ?? '', mark).text)) {
      failures.push({
        invariant: 9,
        message: `${turn.role} turn ${index + 1} is not normalized and escaped`,
      });
    }
    if (turn.role === 'assistant') {
      const calls = message?.content.flatMap((b) => (b.type === 'tool_call' ? [b] : [])) ?? [];
      const sent = calls.map((b) => ({ id: b.id, name: b.name, arguments: b.args }));
      if (JSON.stringify(sent) !== JSON.stringify(turn.toolCalls ?? [])) {
        failures.push({ invariant: 9, message: `the tool calls of turn ${index + 1} changed` });
      }
    }
    if (turn.role === 'user') {
      const sent = message?.content.filter((b) => b.type !== 'text') ?? [];
      if (JSON.stringify(sent) !== JSON.stringify((turn.media ?? []).map(mediaBlockOf))) {
        failures.push({ invariant: 9, message: `the media of user turn ${index + 1} changed` });
      }
    }
    if (turn.role === 'tool' && message?.call_id !== turn.toolCallId) {
      failures.push({ invariant: 9, message: `tool turn ${index + 1} answers another call` });
    }
    // A tool result is the one turn that carries an untrusted item, inside its region.
    if (turn.role !== 'tool' && text.includes(c.sentinel))
      failures.push({ invariant: 1, message: `turn ${index + 1} has the sentinel` });
  });
  return failures;
}

const sourceKinds = { base64: 'base64', url: 'url', file_id: 'fileId' } as const;

/**
 * Whether planning could send the prompt to this adapter: every media block of a modality, source and
 * MIME type its provider kind takes (model/media-sources). The others are never planned onto it, and
 * the adapter refuses them before sending; the invariants are checked where a prompt can go.
 */
export function adapterTakes(adapter: ModelAdapter, prompt: { messages: Message[] }): boolean {
  const kind = providerKinds.find((k) => k === adapter.kind);
  if (kind === undefined) return true;
  return prompt.messages.every((message) =>
    message.content.every((block) => {
      if (block.type !== 'image' && block.type !== 'audio' && block.type !== 'file') return true;
      const modality = modalityOf(block.type);
      return (
        acceptsSource(kind, modality, sourceKinds[block.source.kind]) &&
        acceptsMimeType(kind, modality, block.mime_type)
      );
    }),
  );
}

/**
 * Renders the case twice with `render` and checks every invariant on the neutral messages and on the
 * wire body of every adapter. An adapter without `toWireBody` is itself a failure.
 */
export function checkRendering(
  render: Renderer,
  c: RenderCase,
  adapters: readonly ModelAdapter[],
): Failure[] {
  const prompt = render(c.request, c.options);
  const again = render(c.request, c.options);
  const failures = checkMessages(c, prompt);
  if (JSON.stringify(prompt) !== JSON.stringify(again)) {
    failures.push({ invariant: 10, message: 'two renderings with one nonce differ' });
  }
  for (const adapter of adapters) {
    if (!adapter.toWireBody) {
      failures.push({ invariant: 0, message: `adapter ${adapter.kind} does not expose toWireBody` });
      continue;
    }
    if (!adapterTakes(adapter, prompt)) continue;
    const wire = wireBodyOf(adapter, prompt);
    if (JSON.stringify(wire) !== JSON.stringify(wireBodyOf(adapter, again))) {
      failures.push({ invariant: 10, message: `${adapter.kind}: wire bodies differ` });
    }
    failures.push(...checkWire(c, prompt, wire, adapter.kind));
  }
  return failures;
}

/** A marker only the model's own output carries in the repair case: a key name of its invalid answer. */
export const modelOutputMarker = 'MDLOUT-5e1b';

/**
 * Invariant 15: no byte of model output or untrusted input in any system/developer part, repair
 * included. The case's model "answers" invalid JSON that copies the sentinel into a key name next to
 * a marker of its own and a tool-call argument; the validator's findings quote that key. The repair
 * request built from it must keep all of them out of every adapter's system parts, keep the sentinel
 * out of assistant turns, and carry the answer byte for byte inside an untrusted region.
 */
export function checkRepair(
  render: Renderer,
  c: RenderCase,
  adapters: readonly ModelAdapter[],
  repair: (prompt: RenderedPrompt, answer: string, findings: RepairFinding[]) => { messages: Message[] },
): Failure[] {
  const failures: Failure[] = [];
  const prompt = render(c.request, c.options);
  const argumentSentinel = argumentSentinelOf(c.sentinel);
  const key = `${c.sentinel} ${modelOutputMarker}`;
  const answer = JSON.stringify({ [key]: argumentSentinel });
  const findings: RepairFinding[] = [
    { path: `/${key}`, keyword: 'additionalProperties', message: `Property "${key}" is not allowed.` },
  ];
  const repaired = repair(prompt, answer, findings);
  const mark = datamarkChar(c.options.nonce);
  const expectedAnswer = normalizeText(answer, c.options.mode === 'tags+datamark' ? mark : undefined).text;
  for (const adapter of adapters) {
    if (!adapter.toWireBody || !adapterTakes(adapter, repaired)) continue;
    const wire = JSON.parse(JSON.stringify(adapter.toWireBody(repaired, testCallOptions)));
    const fail = (message: string) =>
      failures.push({ invariant: 15, message: `${adapter.kind}: ${message}` });
    let carried = false;
    for (const { text, authority, system } of wireStrings(wire)) {
      if (system && text.includes(c.sentinel)) fail('the untrusted sentinel is in a system part');
      if (system && text.includes(modelOutputMarker)) fail('model output is in a system part');
      if (system && text.includes(argumentSentinel))
        fail('a value of the model’s answer is in a system part');
      if (authority && text.includes(c.sentinel)) fail('the sentinel is in an assistant turn');
      for (const region of parseRegions(text, c.options.nonce).regions) {
        if (region.attributes.id !== 'repair-answer') continue;
        if (region.attributes.trust !== undefined) fail('the answer’s region is not untrusted');
        if (decodeRegionBody(region.body, c.options.mode, mark) === expectedAnswer) carried = true;
      }
    }
    if (!carried) fail('the repair request does not carry the answer in an untrusted region');
  }
  return failures;
}
