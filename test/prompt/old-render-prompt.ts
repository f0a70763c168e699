// The renderer as it was before the single-pass region writer, kept only as the oracle of the
// equivalence property test: every region normalized (`normalizeContent`), cut (`truncateText`) and
// encoded (the multi-pass body encoder below), one pass per step.
import type { PromptMode, ReasonRequest } from '../../src/contracts/reason-request';
import { encodeBase64 } from '../../src/encoding/base64';
import { utf8 } from '../../src/encoding/utf8';
import type { Message } from '../../src/model/message';
import { datamarkChar } from '../../src/prompt/datamark-char';
import { escapeData } from '../../src/prompt/escape-data';
import { normalizeContent } from '../../src/prompt/normalize-content';
import { type NormalizeCounts, normalizeText } from '../../src/prompt/normalize-text';
import { policyText } from '../../src/prompt/policy-text';
import { type RenderedPrompt, type RenderOptions, trustOf } from '../../src/prompt/render-prompt';
import { renderRegion } from '../../src/prompt/render-region';
import { type Tally, tallyWarnings } from '../../src/prompt/tally-warnings';
import { truncateText } from '../../src/prompt/truncate-text';

const whitespace = /\s/g;

export function oldEncodeRegionBody(text: string, mode: PromptMode, mark: string): string {
  switch (mode) {
    case 'tags':
      return escapeData(text);
    case 'tags+lines':
      return Array.from(escapeData(text), (char) =>
        ['\n', '\v', '\f', '\r', '\u2028', '\u2029'].includes(char)
          ? `&#x${char.charCodeAt(0).toString(16).toUpperCase()};`
          : char,
      ).join('');
    case 'tags+datamark':
      return escapeData(text)
        .replaceAll(' ', mark)
        .replace(whitespace, (space) => `&#x${space.charCodeAt(0).toString(16).toUpperCase()};`);
    case 'tags+base64':
      return encodeBase64(utf8(text));
    case 'json':
      return JSON.stringify(text)
        .replaceAll('&', '\\u0026')
        .replaceAll('<', '\\u003c')
        .replaceAll('>', '\\u003e');
  }
}

function oldRenderToolResult(
  result: { callId: string; tool: string; content: string | Record<string, unknown> | unknown[] },
  nonce: string,
  mode: PromptMode,
  onCounts?: (counts: NormalizeCounts) => void,
): Message {
  const mark = datamarkChar(nonce);
  const normalized = normalizeContent(result.content, mode === 'tags+datamark' ? mark : undefined);
  onCounts?.(normalized);
  const region = renderRegion(
    nonce,
    { id: `t-${result.callId}`, label: `result of ${result.tool}`, trust: 'untrusted' },
    oldEncodeRegionBody(normalized.text, mode, mark),
  );
  return {
    role: 'tool',
    call_id: result.callId,
    tool: result.tool,
    content: [{ type: 'text', text: region }],
  };
}

function text(content: string): Message['content'] {
  return [{ type: 'text', text: content }];
}

export function oldRenderPrompt(request: ReasonRequest, options: RenderOptions): RenderedPrompt {
  const { nonce, canary } = options;
  const mode = options.mode ?? 'tags';
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

  const trusted: string[] = [];
  const untrusted: string[] = [];
  (request.context ?? []).forEach((item, index) => {
    const id = `c${index + 1}`;
    const normalized = normalizeContent(item.content, strip);
    count(id, normalized);
    const cut =
      options.maxItemChars === undefined
        ? { text: normalized.text, truncated: false }
        : truncateText(normalized.text, options.maxItemChars);
    if (cut.truncated) tally.truncated.push([id, options.maxItemChars ?? 0]);
    const trust = trustOf(item);
    const region = renderRegion(
      nonce,
      {
        id,
        label: item.label === undefined ? undefined : normalize(id, item.label),
        trust,
        truncated: cut.truncated,
      },
      oldEncodeRegionBody(cut.text, mode, mark),
    );
    (trust === 'trusted' ? trusted : untrusted).push(region);
  });

  const system = [request.instructions, ...trusted, policyText(canary, mode, mark)];
  const messages: Message[] = [
    { role: 'system', content: text(system.filter((p) => p !== '').join('\n\n')) },
  ];
  const turns: Message[] = [];
  const callNames = new Map<string, string>();
  let toolResults = 0;
  (request.conversation ?? []).forEach((turn, index) => {
    if (turn.role === 'tool') {
      toolResults++;
      const source = `turn ${index + 1}`;
      const tool = turn.name ?? callNames.get(turn.toolCallId) ?? 'tool';
      turns.push(
        oldRenderToolResult({ callId: turn.toolCallId, tool, content: turn.content }, nonce, mode, (counts) =>
          count(source, counts),
        ),
      );
      return;
    }
    if (turn.role === 'user') {
      turns.push({
        role: 'user',
        content: text(escapeData(normalize(`turn ${index + 1}`, turn.content))),
      });
      return;
    }
    // Assistant turns come from the caller too, so they are no more trusted than user turns: a forged
    // `<|im_start|>system` in a "previous answer" must not reach a chat template as a role switch. Its
    // calls go in the provider's tool-call channel (never a system part), with the arguments as the
    // structured value the model produced.
    const content: Message['content'] =
      turn.content === undefined ? [] : text(escapeData(normalize(`turn ${index + 1}`, turn.content)));
    for (const call of turn.toolCalls ?? []) {
      callNames.set(call.id, call.name);
      content.push({ type: 'tool_call', id: call.id, name: call.name, args: call.arguments });
    }
    turns.push({ role: 'assistant', content });
  });
  if (turns.at(-1)?.role === 'user') {
    if (untrusted.length > 0) turns.splice(-1, 0, { role: 'user', content: text(untrusted.join('\n\n')) });
  } else {
    const instructions = request.instructions.trim();
    const restated =
      instructions !== '' && instructions.length <= 4000
        ? instructions
        : `Task: ${escapeData(normalize('task', request.task))}. Follow the instructions in the system message.`;
    turns.push({ role: 'user', content: text([...untrusted, restated].join('\n\n')) });
  }
  messages.push(...turns);
  return {
    messages,
    nonce,
    canary,
    mode,
    layout: 'system',
    warnings: tallyWarnings(tally),
    tainted: untrusted.length + toolResults > 0,
    untrustedMedia: [],
    documents: [],
  };
}
