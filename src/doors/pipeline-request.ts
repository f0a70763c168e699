import { type ReasonRequest, reasonRequestSchema } from '../contracts/reason-request';
import type { InstructionPart } from './build-reason-request';
import { invalidParam } from './invalid-param';

// The derived request goes to the pipeline as it is: tool turns, tool choice and sampling are the
// Reason request's own fields, and the receipt commits to exactly this request.

/** Where a derived request's problem lives in the OpenAI body. */
const paramOf: Record<string, string> = { toolChoice: 'tool_choice' };

/** A door's body mapped to a Reason request, and where in the body its instructions and turns came from. */
export interface DoorRequest {
  request: ReasonRequest;
  /** The parts `request.instructions` was joined from, in order, for the pipeline to lint one by one. */
  instructions: readonly InstructionPart[];
  /** Per conversation turn, the index of the message or input item it starts at; -1 for a string `input`. */
  turnSources: readonly number[];
}

/**
 * The request as the pipeline takes it, checked against the Reason contract: the mapping keeps every
 * shape, but only the contract says what a conversation's tool turns must pair up with (each call
 * answered by the tool turns right after it), and those breaks are the caller's 400, naming the
 * message or input item the broken turn came from. `turns` names the body member the conversation
 * came from.
 */
export function pipelineRequestOf(door: DoorRequest, turns: 'messages' | 'input'): ReasonRequest {
  const { request } = door;
  const checked = reasonRequestSchema.safeParse(request);
  if (checked.success) return request;
  const issue = checked.error.issues[0];
  const [head, ...rest] = issue?.path ?? [];
  const turn = head === 'conversation' && typeof rest[0] === 'number' ? rest[0] : undefined;
  const source = turn === undefined ? undefined : door.turnSources[turn];
  const field = rest.slice(head === 'conversation' ? 1 : 0).join('.');
  const path =
    head !== 'conversation'
      ? [paramOf[String(head)] ?? String(head ?? turns)]
      : source === undefined || source < 0
        ? [turns]
        : [turns, source];
  // The contract's messages name other turns by their Reason index ("assistant turn 2"); here they
  // name the message or input item that turn came from.
  const message = (issue?.message ?? 'does not map to a Reason request').replace(
    /\bassistant turn (\d+)\b/g,
    (whole, index: string) => {
      const at = door.turnSources[Number(index)];
      return at === undefined || at < 0 ? whole : `${turns}[${at}]`;
    },
  );
  throw invalidParam(path, `${field === '' ? '' : `(${field}) `}${message}`);
}
