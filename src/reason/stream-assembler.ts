import type { ReasonRequest } from '../contracts/reason-request';
import { createDepthScanner } from '../encoding/json-depth';
import type { Annotation } from '../model/annotation';
import { estimateTokens } from '../model/estimate-tokens';
import type { ContentBlock, ReasoningBlock } from '../model/message';
import type { MessageDelta, ModelResponse, StreamPart } from '../model/model-response';
import { parseToolArguments } from '../providers/shared/message-text';
import type { StreamEvent } from '../streaming/stream-events';
import { reasonAnnotationsOf } from './annotations-of';
import { checkToolCall } from './check-tool-call';

interface Call {
  ordinal: number;
  id?: string;
  name?: string;
  args: string;
  /** The arguments' depth so far, under the rule every JSON text Valve reads keeps to. */
  scan: (piece: string) => number;
  started: boolean;
  closed: boolean;
}

export interface AssemblerOptions {
  request: ReasonRequest;
  tainted: boolean;
  /** The rendered prompt's document sources, so that a citation names the context item it cites. */
  documents?: (number | null)[];
  /** JSON output is held and sent once validated; text is sent as it arrives. */
  holdText: boolean;
  /** Where caller-visible events go. */
  emit: (event: StreamEvent) => void;
}

/**
 * Turns one attempt's neutral stream parts into Valve's events (README "Streaming")
 * and assembles exactly what was sent into a ModelResponse, so the terminal response — and its receipt —
 * is built from what the caller received. Reasoning text is sent as `response.reasoning.delta`; its
 * opaque state (signatures, redacted data) comes whole in the finished answer. Tool calls are
 * keyed by their block index, may interleave, and close (completed or error) at the finish, after their
 * arguments were parsed and validated against the tool's inputSchema.
 */
export class StreamAssembler {
  private text = '';
  private readonly reasoning: { index: number; block: ReasoningBlock }[] = [];
  private refusal: string | undefined;
  /** Citations, offsets into `text`. */
  private readonly annotations: Annotation[] = [];
  private readonly calls = new Map<number, Call>();
  private readonly order: Call[] = [];
  /** A call's arguments nested deeper than Valve reads: nothing more is sent, and the attempt fails. */
  private unreadableCall = false;
  private sentAny = false;

  constructor(private readonly options: AssemblerOptions) {}

  add(message: MessageDelta): void {
    const delta = message.delta;
    if (delta.type === 'text') {
      this.text += delta.text;
      if (!this.options.holdText && delta.text !== '')
        this.send({ type: 'response.output_text.delta', delta: delta.text });
    } else if (delta.type === 'reasoning') {
      this.addReasoning(message.index, delta);
      // Thinking text is model output the caller may show; signatures travel in the finished answer.
      if (delta.text) this.send({ type: 'response.reasoning.delta', delta: delta.text });
    } else if (delta.type === 'refusal') {
      // Needs no validation, so it is sent as it arrives, in JSON mode too.
      this.refusal = (this.refusal ?? '') + delta.text;
      if (delta.text !== '') this.options.emit({ type: 'response.refusal.delta', delta: delta.text });
    } else if (delta.type === 'annotations') {
      this.annotate(delta.annotations);
    } else {
      let call = this.calls.get(message.index);
      if (!call) {
        call = {
          ordinal: this.order.length,
          args: '',
          scan: createDepthScanner(),
          started: false,
          closed: false,
        };
        this.calls.set(message.index, call);
        this.order.push(call);
      }
      call.id ??= delta.id;
      call.name ??= delta.name || undefined;
      const fragment = delta.args_fragment ?? '';
      call.args += fragment;
      if (call.scan(fragment) >= 0) this.unreadableCall = true;
      if (this.unreadableCall) return;
      if (!call.started && call.name) this.start(call, call.args);
      else if (call.started && fragment !== '') this.emitCall(call, 'delta', fragment);
    }
  }

  /**
   * True once a tool call's arguments nested deeper than Valve parses: the answer cannot be read, so
   * the attempt is a provider failure (`invalid_response`), and nothing of it is sent after that.
   */
  get unreadable(): boolean {
    return this.unreadableCall;
  }

  /**
   * A reasoning delta joins the block of its index until that block is closed by a signature; redacted
   * data and a signature that rides on a tool call are blocks of their own.
   */
  private addReasoning(index: number, delta: Extract<MessageDelta['delta'], { type: 'reasoning' }>): void {
    const { text, signature, redacted, summary, call_id } = delta;
    const last = this.reasoning.at(-1);
    const joins =
      last !== undefined &&
      last.index === index &&
      redacted === undefined &&
      call_id === undefined &&
      last.block.redacted === undefined &&
      last.block.call_id === undefined &&
      last.block.signature === undefined;
    if (!joins) {
      const block: ReasoningBlock = { type: 'reasoning' };
      if (redacted !== undefined) block.redacted = redacted;
      if (summary) block.summary = true;
      if (call_id !== undefined) block.call_id = call_id;
      this.reasoning.push({ index, block });
    }
    const block = (this.reasoning.at(-1) as { block: ReasoningBlock }).block;
    if (text) block.text = (block.text ?? '') + text;
    if (signature) block.signature = signature;
  }

  /** Whether any event of this attempt reached the caller. */
  get sent(): boolean {
    return this.sentAny;
  }

  /** Closes every call with completed or error, and returns the answer as sent. */
  finish(part: Extract<StreamPart, { type: 'finish' }>): ModelResponse {
    const content: ContentBlock[] = [];
    content.push(...this.reasoning.map(({ block }) => block));
    if (this.text !== '') content.push({ type: 'text', text: this.text, ...this.annotationsField() });
    if (this.refusal !== undefined) content.push({ type: 'refusal', refusal: this.refusal });
    for (const call of this.order) {
      if (!call.started) this.start(call, call.args);
      const id = call.id as string;
      const check = checkToolCall(
        this.options.request,
        { id, name: call.name, rawArgs: call.args },
        this.options.tainted,
      );
      if (check.ok) {
        this.emitCall(call, 'completed', call.args);
      } else {
        this.close(call, {
          type: 'invalid_tool_call',
          code: check.invalid.code,
          message: check.invalid.error,
        });
      }
      const args = parseToolArguments(call.args);
      content.push(
        args.ok
          ? { type: 'tool_call', id, name: call.name ?? '', args: args.args }
          : { type: 'invalid_tool_call', id, name: call.name, raw_args: call.args, error: args.error },
      );
    }
    return {
      message: { role: 'assistant', content },
      usage: part.usage,
      finish_reason: part.finish_reason,
      raw_finish_reason: part.raw_finish_reason,
      warnings: part.warnings,
      model: part.model,
    };
  }

  /** What was sent so far when generation stops early: the text, and no unfinished tool call. */
  partial(finishReason: ModelResponse['finish_reason'], inputTokens: number): ModelResponse {
    const content: ContentBlock[] =
      this.text === '' ? [] : [{ type: 'text', text: this.text, ...this.annotationsField() }];
    if (this.refusal !== undefined) content.push({ type: 'refusal', refusal: this.refusal });
    return {
      message: { role: 'assistant', content },
      usage: { input_tokens: inputTokens, output_tokens: this.outputTokens() },
      finish_reason: finishReason,
    };
  }

  /** Ends every started, unfinished call with an error event (exactly one terminator each). */
  abortOpen(code: string, message: string): void {
    for (const call of this.order) {
      if (call.started && !call.closed) this.close(call, { type: 'aborted', code, message });
    }
  }

  /** An estimate of the output tokens generated so far (text, reasoning and arguments), plus `next`'s. */
  outputTokens(...next: MessageDelta[]): number {
    const extra = next
      .map(({ delta }) =>
        delta.type === 'tool_call'
          ? (delta.args_fragment ?? '')
          : delta.type === 'annotations'
            ? ''
            : (delta.text ?? ''),
      )
      .join('');
    return estimateTokens(
      this.text +
        this.reasoning.map(({ block }) => block.text ?? '').join('') +
        (this.refusal ?? '') +
        this.order.map((c) => c.args).join('') +
        extra,
    );
  }

  /**
   * Keeps citations for the answer and, when text is sent as it arrives, sends them in the answer's
   * form (held JSON output carries none). Only what was sent is kept, so the answer matches the stream.
   */
  private annotate(annotations: readonly Annotation[]): void {
    if (annotations.length === 0 || this.options.holdText) return;
    const span = { offset: 0, length: this.text.length };
    // Pinned to the text sent so far, so that the answer's offsets are the ones the stream sent.
    const pinned = annotations.map((annotation) => {
      const start = Math.min(Math.max(annotation.start ?? 0, 0), span.length);
      return {
        ...annotation,
        start,
        end: Math.min(Math.max(annotation.end ?? span.length, start), span.length),
      };
    });
    this.annotations.push(...pinned);
    this.send({
      type: 'response.output_text.annotations',
      annotations: reasonAnnotationsOf(pinned, span, this.options.request, this.options.documents),
    });
  }

  private annotationsField(): { annotations?: Annotation[] } {
    return this.annotations.length > 0 ? { annotations: [...this.annotations] } : {};
  }

  private send(event: StreamEvent): void {
    if (this.unreadableCall) return;
    this.sentAny = true;
    this.options.emit(event);
  }

  private start(call: Call, buffered: string): void {
    call.id ??= `call_${call.ordinal}`;
    call.name ??= 'unnamed';
    call.started = true;
    this.send({
      type: 'response.tool_call.started',
      index: call.ordinal,
      item_id: `item_${call.ordinal}`,
      call_id: call.id,
      name: call.name,
    });
    if (buffered !== '') this.emitCall(call, 'delta', buffered);
  }

  private emitCall(call: Call, kind: 'delta' | 'completed', text: string): void {
    const base = { index: call.ordinal, item_id: `item_${call.ordinal}`, call_id: call.id as string };
    if (kind === 'delta') this.send({ type: 'response.tool_call.delta', ...base, arguments_delta: text });
    else {
      call.closed = true;
      this.send({
        type: 'response.tool_call.completed',
        ...base,
        name: call.name as string,
        arguments: text,
      });
    }
  }

  private close(call: Call, error: { type: string; code: string; message: string }): void {
    call.closed = true;
    this.send({
      type: 'response.tool_call.error',
      index: call.ordinal,
      item_id: `item_${call.ordinal}`,
      call_id: call.id as string,
      error,
    });
  }
}
