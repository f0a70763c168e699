import type { Warning } from '../contracts/reason-response';
import type { ChatRequest } from './chat-request';
import type { ResponsesRequest } from './responses-request';

// Knobs a body may set that ask the model for something Valve does not apply: accepted, so that code
// written for OpenAI runs unchanged, and reported in `valve.warnings` so that nobody believes they took
// effect. docs/openai.md lists them in its field table.

/** A knob the body set and Valve did not apply: its parameter path and the value sent. */
export interface IgnoredKnob {
  param: string;
  value: unknown;
}

/** A service tier other than the default asks for a class of service Valve does not choose. */
function tierKnob(tier: string | null | undefined): IgnoredKnob[] {
  return tier === undefined || tier === null || tier === 'auto' || tier === 'default'
    ? []
    : [{ param: 'service_tier', value: tier }];
}

function set(param: string, value: unknown): IgnoredKnob[] {
  return value === undefined || value === null ? [] : [{ param, value }];
}

/** The Chat Completions knobs a body set that Valve does not apply. */
export function ignoredChatKnobs(body: ChatRequest): IgnoredKnob[] {
  return [
    ...set('reasoning_effort', body.reasoning_effort),
    ...set('verbosity', body.verbosity),
    ...tierKnob(body.service_tier),
  ];
}

/** The Responses API knobs a body set that Valve does not apply. */
export function ignoredResponsesKnobs(body: ResponsesRequest): IgnoredKnob[] {
  return [
    ...set('reasoning.effort', body.reasoning?.effort),
    ...set('reasoning.summary', body.reasoning?.summary ?? body.reasoning?.generate_summary),
    ...set('reasoning.context', body.reasoning?.context),
    ...set('reasoning.mode', body.reasoning?.mode),
    ...set('text.verbosity', body.text?.verbosity),
    ...(body.truncation === 'auto' ? [{ param: 'truncation', value: 'auto' }] : []),
    ...set('max_tool_calls', body.max_tool_calls),
    ...tierKnob(body.service_tier),
  ];
}

/** One `openai.param_ignored` warning per knob. */
export function ignoredWarnings(knobs: readonly IgnoredKnob[]): Warning[] {
  return knobs.map(({ param, value }) => ({
    code: 'openai.param_ignored',
    message: `Valve did not apply ${param}: ${JSON.stringify(value)}; the model answered without it (docs/openai.md lists what each field does).`,
  }));
}
