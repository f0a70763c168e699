// A checker of the stream contract: seed 002's tool-call ordering rules per call_id, and api.md's
// "exactly one terminal event, last". Every streaming test runs its events through it.

interface Event {
  type: string;
  [key: string]: unknown;
}

const required: Record<string, string[]> = {
  'response.tool_call.started': ['type', 'index', 'item_id', 'call_id', 'name'],
  'response.tool_call.delta': ['type', 'index', 'item_id', 'call_id', 'arguments_delta'],
  'response.tool_call.completed': ['type', 'index', 'item_id', 'call_id', 'name', 'arguments'],
  'response.tool_call.error': ['type', 'index', 'item_id', 'call_id', 'error'],
};
const optional = ['openai_chunk'];
const terminal = new Set(['response.completed', 'response.error', 'response.cancelled']);

/** Returns every violation found (empty when the stream obeys the contract). */
export function checkStreamOrder(events: readonly Event[]): string[] {
  const problems: string[] = [];
  const calls = new Map<
    string,
    { state: 'open' | 'closed'; name: string; args: string; index: number; item: string }
  >();
  events.forEach((event, position) => {
    const at = `event ${position} (${event.type})`;
    const fields = required[event.type];
    if (fields) {
      for (const field of fields) if (!(field in event)) problems.push(`${at}: missing ${field}`);
      for (const key of Object.keys(event)) {
        if (!fields.includes(key) && !optional.includes(key)) problems.push(`${at}: unexpected field ${key}`);
      }
      const index = event.index;
      if (typeof index !== 'number' || !Number.isInteger(index) || index < 0)
        problems.push(`${at}: bad index`);
      for (const key of ['item_id', 'call_id'] as const) {
        if (typeof event[key] !== 'string' || (event[key] as string).length === 0)
          problems.push(`${at}: empty ${key}`);
      }
      const callId = String(event.call_id);
      const call = calls.get(callId);
      if (event.type === 'response.tool_call.started') {
        if (call) problems.push(`${at}: ${callId} started twice`);
        if (typeof event.name !== 'string' || event.name === '') problems.push(`${at}: empty name`);
        calls.set(callId, {
          state: 'open',
          name: String(event.name),
          args: '',
          index: Number(index),
          item: String(event.item_id),
        });
      } else if (!call) {
        problems.push(`${at}: ${callId} before its started event`);
      } else if (call.state === 'closed') {
        problems.push(`${at}: ${callId} after its terminal event`);
      } else {
        if (call.index !== index || call.item !== event.item_id)
          problems.push(`${at}: index or item_id changed`);
        if (event.type === 'response.tool_call.delta') call.args += String(event.arguments_delta);
        if (event.type === 'response.tool_call.completed') {
          if (event.arguments !== call.args)
            problems.push(`${at}: arguments differ from the concatenated deltas`);
          if (event.name !== call.name) problems.push(`${at}: name differs from started`);
          call.state = 'closed';
        }
        if (event.type === 'response.tool_call.error') {
          const error = event.error as Record<string, unknown> | undefined;
          for (const key of ['type', 'code', 'message']) {
            if (typeof error?.[key] !== 'string' || error[key] === '')
              problems.push(`${at}: error.${key} missing`);
          }
          call.state = 'closed';
        }
      }
    }
    if (terminal.has(event.type) && position !== events.length - 1)
      problems.push(`${at}: terminal event is not last`);
  });
  const terminals = events.filter((event) => terminal.has(event.type)).length;
  if (terminals !== 1) problems.push(`${terminals} terminal events, expected exactly 1`);
  const last = events[events.length - 1];
  if (last?.type === 'response.completed') {
    for (const [callId, call] of calls) if (call.state === 'open') problems.push(`${callId} never completed`);
  }
  return problems;
}

/** Parses an SSE body into events, checking that every `event:` name equals its data's type. */
export function parseSse(text: string): Event[] {
  const events: Event[] = [];
  for (const block of text.split('\n\n')) {
    if (block.trim() === '') continue;
    const name = /^event: (.+)$/m.exec(block)?.[1];
    const data = /^data: (.+)$/m.exec(block)?.[1];
    if (!name || !data) throw new Error(`not an SSE event: ${block}`);
    const event = JSON.parse(data) as Event;
    if (event.type !== name) throw new Error(`event name ${name} differs from type ${event.type}`);
    events.push(event);
  }
  return events;
}
