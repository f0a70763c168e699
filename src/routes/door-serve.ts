import type { Context } from 'hono';
import type { PrivacyLevel, ReasonRequest } from '../contracts/reason-request';
import type { ReasonResponse } from '../contracts/reason-response';
import type { InstructionPart } from '../doors/build-reason-request';
import { invalidParam } from '../doors/invalid-param';
import { pipelineRequestOf } from '../doors/pipeline-request';
import type { AppEnv } from '../env';
import { type ServeOptions, serveAnswer, serveEvents } from '../reason/serve-reason';
import type { StreamEvent } from '../streaming/stream-events';
import { serveDepsOf } from './reason-deps';

// The door's one coupling to the pipeline: it hands serve-reason (the same claims, receipts, usage
// and health as POST /v1/reason) a derived Reason request and the few facts only the door knows, and
// gets back an answer or a stream of Valve's events; each door's encoders (src/doors/<name>/) only reshape those.

export interface DoorRun {
  request: ReasonRequest;
  /** The most sensitive level of the messages themselves (`valve.privacy`). */
  privacy?: PrivacyLevel;
  /** The route, for the usage record. */
  route: string;
  /** The parts the instructions were joined from (DoorRequest): the pipeline lints each, naming its param. */
  instructions: readonly InstructionPart[];
  /** The body member the conversation came from, for the 400 of a broken tool-call pairing. */
  turns: 'messages' | 'input';
  /** Per conversation turn, the message or input item it came from (DoorRequest). */
  turnSources: readonly number[];
}

/**
 * OpenAI messages carry no trust label, and a chat app's conversation comes from its end users and
 * clients: user turns, and the assistant turns and tool results sent back, are all untrusted, so a tool
 * call that follows any of them is tainted. The request the receipt commits to is unchanged.
 */
function optionsOf(run: DoorRun): ServeOptions {
  const instructionSources = run.instructions.map((part) => ({
    text: part.text,
    invalid: (problem: string) => invalidParam(part.param, problem),
  }));
  return { route: run.route, privacy: run.privacy, untrustedTurns: true, instructionSources };
}

export interface DoorAnswer {
  /** Signed: the door's routes always issue receipts, and a replay returns the stored signed answer. */
  response: ReasonResponse;
  replayed: boolean;
}

/** The signed Reason response of a JSON call (or the replay of an earlier call with the same receiptId). */
export async function answerJson(c: Context<AppEnv>, run: DoorRun): Promise<DoorAnswer> {
  const served = await serveAnswer(pipelineRequestOf(run, run.turns), serveDepsOf(c), optionsOf(run));
  return { response: served.response as ReasonResponse, replayed: served.replayed };
}

export interface DoorStream {
  events: AsyncIterable<StreamEvent>;
  /** Known before the first event: the stream's answer will carry it. */
  receiptId: string;
  /** Aborts the upstream call when the caller goes away. */
  abort: AbortController;
  replayed: boolean;
}

/**
 * A replayed stream has no deltas, and a door's clients build the text from deltas alone: the stored
 * answer's text goes out as one delta before the terminal event.
 */
async function* withReplayedText(events: AsyncIterable<StreamEvent>): AsyncGenerator<StreamEvent> {
  for await (const event of events) {
    if (event.type === 'response.completed') {
      const { output } = event.response;
      if (output.format === 'refusal') {
        if (output.refusal !== '') yield { type: 'response.refusal.delta', delta: output.refusal };
      } else {
        const text =
          output.format === 'text' ? output.text : output.value === null ? '' : JSON.stringify(output.value);
        if (text !== '') yield { type: 'response.output_text.delta', delta: text };
        // Its citations follow the text, as they did when it was first streamed.
        if (output.format === 'text' && output.annotations !== undefined)
          yield { type: 'response.output_text.annotations', annotations: output.annotations };
      }
    }
    yield event;
  }
}

/** Valve's events of a streamed call; planning and admission failures throw before any event. */
export async function answerStream(c: Context<AppEnv>, run: DoorRun): Promise<DoorStream> {
  const served = await serveEvents(pipelineRequestOf(run, run.turns), serveDepsOf(c), optionsOf(run));
  const events = served.replayed ? withReplayedText(served.events) : served.events;
  return { events, receiptId: served.receiptId, abort: served.abort, replayed: served.replayed };
}

/** The headers of every door answer: the request's id, its receipt's id, and whether it is a replay. */
export function doorHeaders(
  c: Context<AppEnv>,
  receiptId: string,
  replayed: boolean,
): Record<string, string> {
  return {
    'X-Request-Id': c.get('requestId'),
    ...(replayed ? { 'Idempotent-Replayed': 'true' } : undefined),
    'X-Valve-Receipt-Id': receiptId,
  };
}
