import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { estimateTokens } from '../../model/estimate-tokens';
import type { ContentBlock, MediaBlock, Message } from '../../model/message';
import type { CallOptions, ModelAdapter } from '../../model/model-adapter';
import type { ModelRequest, ToolSpec } from '../../model/model-request';
import type { ModelResponse, StreamPart } from '../../model/model-response';
import { repairHeading } from '../../model/repair-heading';
import { abortableSleep } from '../abortable-sleep';
import { modelFailure } from '../model-error';
import { checkMediaPlacement, isMediaBlock, mediaSegments } from '../shared/media';
import { sampleValue } from './sample-value';

// The built-in simulator: deterministic, labelled as simulated, no network. It honours the output
// schema (its value validates), calls a listed tool when the request names one, reports usage from a
// real token estimate, and can be scripted from its catalog entry to be slow, hang or fail.

interface SimScript {
  latencyMs: number;
  interChunkMs: number;
  failWith?: string;
  failTimes?: number;
  retryAfterMs?: number;
  hang: boolean;
  failAfterChunks?: number;
  invalidJson?: 'always' | 'until_feedback';
}

/** Calls made so far per model in this isolate, for `failTimes` (fail the first N, then answer). */
const callsByModel = new Map<string, number>();

function readScript(config: Record<string, unknown> | undefined): SimScript {
  const number = (value: unknown) => (typeof value === 'number' && value >= 0 ? value : 0);
  return {
    latencyMs: number(config?.latencyMs),
    interChunkMs: number(config?.interChunkMs),
    failWith: typeof config?.failWith === 'string' ? config.failWith : undefined,
    failTimes: typeof config?.failTimes === 'number' ? config.failTimes : undefined,
    retryAfterMs: typeof config?.retryAfterMs === 'number' ? config.retryAfterMs : undefined,
    hang: config?.hang === true,
    failAfterChunks: typeof config?.failAfterChunks === 'number' ? config.failAfterChunks : undefined,
    invalidJson:
      config?.invalidJson === 'always' || config?.invalidJson === 'until_feedback'
        ? config.invalidJson
        : undefined,
  };
}

function textOf(message: Message): string {
  return message.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
}

/**
 * Refuses, before anything is simulated, what a provider would refuse: media outside a user message,
 * or from a source the simulator does not read (it reads bytes only, src/model/media-sources.ts).
 */
function checkMedia(request: ModelRequest, model: string): void {
  const context = { provider: 'sim', model };
  checkMediaPlacement(request.messages, context);
  for (const message of request.messages) mediaSegments(message, 'sim', context);
}

function mediaOf(request: ModelRequest): MediaBlock[] {
  return request.messages.flatMap((message) => message.content.filter(isMediaBlock));
}

/** What the media of a request add to its digest: each block's type, MIME type and bytes. */
function mediaDigestInput(media: MediaBlock[]): string {
  return media
    .map((block) => {
      const source = block.source;
      const value =
        source.kind === 'base64' ? source.data : source.kind === 'url' ? source.url : source.file_id;
      return `\n[${block.type} ${block.mime_type} ${value}]`;
    })
    .join('');
}

const mediaNouns: Record<MediaBlock['type'], [string, string]> = {
  image: ['image', 'images'],
  audio: ['audio clip', 'audio clips'],
  file: ['PDF', 'PDFs'],
};

/** " with 1 image and 2 PDFs" for a request with media, "" for one without (whose answer is unchanged). */
function mediaPhrase(media: MediaBlock[]): string {
  const counts = (['image', 'audio', 'file'] as const)
    .map((type) => [type, media.filter((block) => block.type === type).length] as const)
    .filter(([, count]) => count > 0)
    .map(([type, count]) => `${count} ${mediaNouns[type][count === 1 ? 0 : 1]}`);
  return counts.length === 0 ? '' : ` with ${counts.join(' and ')}`;
}

function chooseTool(request: ModelRequest, prompt: string): ToolSpec | undefined {
  const tools = request.tools ?? [];
  const choice = request.tool_choice;
  if (choice === 'none' || tools.length === 0) return undefined;
  if (typeof choice === 'object') return tools.find((tool) => tool.name === choice.name);
  // Once a tool's result is in the request the simulated agent has what it asked for and answers in
  // text, so a caller's tool loop ends after one round unless a call is forced.
  if (choice !== 'required' && request.messages.some((message) => message.role === 'tool')) return undefined;
  const named = tools.find((tool) =>
    new RegExp(`(^|[^A-Za-z0-9_-])${tool.name}($|[^A-Za-z0-9_-])`).test(prompt),
  );
  return named ?? (choice === 'required' ? tools[0] : undefined);
}

/** The text up to the first stop sequence it contains, as a model stops before emitting one. */
function cutAtStop(text: string, stop: string[] | undefined): string {
  let end = text.length;
  for (const sequence of stop ?? []) {
    const at = text.indexOf(sequence);
    if (at >= 0 && at < end) end = at;
  }
  return text.slice(0, end);
}

/**
 * The longest prefix of `text`, in token-sized pieces (up to four letters, a digit, a space run, any
 * other character), whose estimated tokens fit `maxTokens`, as a model stops when it runs out of output
 * tokens; `truncated` when anything was cut.
 */
function cutAtTokens(text: string, maxTokens: number | undefined): { text: string; truncated: boolean } {
  if (maxTokens === undefined || estimateTokens(text) <= maxTokens) return { text, truncated: false };
  let kept = '';
  for (const piece of text.match(/[A-Za-z]{1,4}|\s+|./gsu) ?? []) {
    if (estimateTokens(kept + piece) > maxTokens) break;
    kept += piece;
  }
  return { text: kept, truncated: true };
}

/** Whether Valve's repair feedback (prompt/render-repair, in the final user turn) is in the request. */
function hasRepairFeedback(request: ModelRequest): boolean {
  const last = request.messages.at(-1);
  return last?.role === 'user' && textOf(last).includes(repairHeading);
}

function answer(request: ModelRequest, model: string, script?: SimScript): ModelResponse {
  const prompt = request.messages.map(textOf).join('\n');
  const media = mediaOf(request);
  const digest = bytesToHex(sha256(utf8ToBytes(`${model}\n${prompt}${mediaDigestInput(media)}`))).slice(
    0,
    12,
  );
  const inputTokens = estimateTokens(prompt);
  const tool = chooseTool(request, prompt);
  let content: ContentBlock[];
  let truncated = false;
  if (tool) {
    const args = sampleValue(tool.input_schema, digest);
    const record = typeof args === 'object' && args !== null && !Array.isArray(args) ? args : {};
    content = [
      { type: 'tool_call', id: `call_${digest}`, name: tool.name, args: record as Record<string, unknown> },
    ];
  } else if (request.output) {
    const invalid =
      script?.invalidJson === 'always' ||
      (script?.invalidJson === 'until_feedback' && !hasRepairFeedback(request));
    // A value no useful schema accepts: the wrong type at the top.
    content = [
      { type: 'json', value: invalid ? ['sim-invalid'] : sampleValue(request.output.schema, digest) },
    ];
  } else {
    const text = `[simulated by sim/${model}] A deterministic answer (digest ${digest}) to a prompt of ${inputTokens} estimated tokens${mediaPhrase(media)}. No model was called.`;
    const cut = cutAtTokens(cutAtStop(text, request.settings?.stop), request.settings?.max_tokens);
    truncated = cut.truncated;
    content = [{ type: 'text', text: cut.text }];
  }
  const outputText = content.map((block) => JSON.stringify(block)).join('');
  const outputTokens = Math.min(
    estimateTokens(outputText),
    request.settings?.max_tokens ?? Number.POSITIVE_INFINITY,
  );
  return {
    message: { role: 'assistant', content },
    usage: {
      input_tokens: inputTokens,
      output_tokens: outputTokens,
      reasoning_tokens: 0,
      cache_read_tokens: 0,
    },
    finish_reason: tool ? 'tool_calls' : truncated ? 'length' : 'stop',
    raw_finish_reason: tool ? 'tool_calls' : truncated ? 'length' : 'stop',
    warnings: [{ code: 'model.simulated', message: 'This answer came from Valve’s built-in simulator.' }],
    model,
  };
}

async function prepare(options: CallOptions): Promise<SimScript> {
  const script = readScript(options.config);
  try {
    if (script.hang) await abortableSleep(2_147_000_000, options.signal);
    if (script.latencyMs > 0) await abortableSleep(script.latencyMs, options.signal);
  } catch {
    throw modelFailure({
      kind: 'timeout',
      message: 'The simulated model did not answer in time.',
      provider: 'sim',
      model: options.model,
      dispatch: 'sent',
    });
  }
  const calls = (callsByModel.get(options.model) ?? 0) + 1;
  callsByModel.set(options.model, calls);
  if (script.failWith && (script.failTimes === undefined || calls <= script.failTimes)) {
    throw modelFailure({
      retry_after_ms: script.retryAfterMs,
      kind: script.failWith as 'server',
      message: `The simulated model was scripted to fail with ${script.failWith}.`,
      provider: 'sim',
      model: options.model,
      dispatch: 'sent',
    });
  }
  return script;
}

export const simAdapter: ModelAdapter = {
  kind: 'sim',
  // The simulator is in-process: what it "sends" is the neutral request itself.
  toWireBody(request, options) {
    checkMedia(request, options.model);
    return structuredClone(request);
  },
  async generate(request, options) {
    checkMedia(request, options.model);
    const script = await prepare(options);
    return answer(request, options.model, script);
  },
  async *stream(request, options): AsyncIterable<StreamPart> {
    checkMedia(request, options.model);
    const script = await prepare(options);
    const response = answer(request, options.model, script);
    const messageId = `msg_${options.model}`;
    let index = 0;
    let sent = 0;
    const cut = () => {
      if (script.failAfterChunks !== undefined && sent++ >= script.failAfterChunks) {
        throw modelFailure({
          kind: 'network',
          message: 'The simulated stream was scripted to be cut mid-answer.',
          provider: 'sim',
          model: options.model,
          dispatch: 'streaming',
          emitted_deltas: sent > 1,
        });
      }
    };
    for (const block of response.message.content) {
      if (block.type === 'text') {
        for (const piece of block.text.match(/\S+\s*/g) ?? []) {
          cut();
          yield {
            type: 'delta',
            delta: { message_id: messageId, index, delta: { type: 'text', text: piece } },
          };
          if (script.interChunkMs > 0) await abortableSleep(script.interChunkMs, options.signal);
        }
      } else if (block.type === 'json') {
        const text = JSON.stringify(block.value);
        yield { type: 'delta', delta: { message_id: messageId, index, delta: { type: 'text', text } } };
      } else if (block.type === 'tool_call') {
        const args = JSON.stringify(block.args);
        yield {
          type: 'delta',
          delta: {
            message_id: messageId,
            index,
            delta: { type: 'tool_call', id: block.id, name: block.name, args_fragment: '' },
          },
        };
        yield {
          type: 'delta',
          delta: { message_id: messageId, index, delta: { type: 'tool_call', args_fragment: args } },
        };
      }
      index++;
    }
    yield {
      type: 'finish',
      finish_reason: response.finish_reason,
      raw_finish_reason: response.raw_finish_reason,
      usage: response.usage,
      model: options.model,
      warnings: response.warnings,
    };
  },
};
