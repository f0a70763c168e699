import type {
  Capability,
  ContextItem,
  ConversationTurn,
  ModelPolicy,
  OutputSpec,
  PromptCache,
  Reasoning,
  ReasonRequest,
  Sampling,
  ToolChoice,
} from '../contracts/reason-request';
import { ApiError } from '../errors';
import { invalidParam, type ParamPath } from './invalid-param';
import type { ValveOptions } from './valve-options';

// The part of the mapping both OpenAI APIs share: their messages, tools and settings, already read
// out of either wire shape, become one Reason request. Pure and deterministic: the receipt commits to
// the derived request, so an auditor who has the OpenAI body reproduces it exactly with this code.
// The instruction parts are not linted here: the pipeline lints them (DoorRequest.instructions).

export interface InstructionPart {
  text: string;
  /** Where the text came from, for the 400 of the pipeline's instruction lint. */
  param: ParamPath;
}

export interface DoorInput {
  /** The default task, which versions the mapping: `openai.chat/1`, `openai.responses/1`. */
  task: string;
  model: string;
  instructions: InstructionPart[];
  conversation: ConversationTurn[];
  tools: Capability[];
  toolChoice?: ToolChoice;
  parallelToolCalls?: boolean;
  sampling: Sampling;
  reasoning?: Reasoning;
  output?: OutputSpec;
  maxOutputTokens?: number;
  /** Prompt-cache breakpoints the door's wire format marked where bytes repeat (the Anthropic door). */
  cache?: PromptCache;
  valve?: ValveOptions;
}

const prefers = { 'valve/cost': 'cost', 'valve/speed': 'speed', 'valve/quality': 'quality' } as const;

/** `auto` → the default policy; `valve/<prefer>` → prefer; `provider/model` → pinned, no fallback. */
export function policyOfModel(model: string): ModelPolicy {
  if (model === 'auto') return {};
  if (Object.hasOwn(prefers, model)) return { prefer: prefers[model as keyof typeof prefers] };
  const slash = model.indexOf('/');
  if (slash > 0 && slash < model.length - 1) {
    return {
      pinned: { provider: model.slice(0, slash), model: model.slice(slash + 1) },
      allowFallback: false,
    };
  }
  throw new ApiError(
    'request.not_found',
    `The model '${model}' does not exist: use "auto", "valve/cost", "valve/speed", "valve/quality" or a catalog id "provider/model" (GET /openai/v1/models).`,
    { details: { param: 'model', openaiCode: 'model_not_found' } },
  );
}

function mergePolicy(derived: ModelPolicy, given: ModelPolicy | undefined): ModelPolicy | undefined {
  const policy: ModelPolicy = { ...given };
  for (const [key, value] of Object.entries(derived) as [keyof ModelPolicy, unknown][]) {
    // allowFallback is only a default of pinning: the caller's own choice stands.
    if (key === 'allowFallback' && given?.allowFallback !== undefined) continue;
    if (given?.[key] !== undefined) {
      throw invalidParam(
        ['valve', 'modelPolicy', key],
        `is already set by the OpenAI body (${key === 'maxOutputTokens' ? 'max_completion_tokens or max_tokens' : 'model'}); set it in one place`,
      );
    }
    (policy as Record<string, unknown>)[key] = value;
  }
  return Object.keys(policy).length > 0 ? policy : undefined;
}

function sampling(values: Sampling): Sampling | undefined {
  const present = Object.entries(values).filter(([, value]) => value !== undefined && value !== null);
  return present.length > 0 ? (Object.fromEntries(present) as Sampling) : undefined;
}

/**
 * OpenAI's reasoning effort as Valve's `reasoning`: `none` turns thinking off, `xhigh` and `max` are
 * asked as `high` (the most every provider takes), and a summary is passed on. Null means unset.
 */
export function reasoningOfEffort(
  effort: 'none' | 'minimal' | 'low' | 'medium' | 'high' | 'xhigh' | 'max' | null | undefined,
  summary?: Reasoning['summary'] | null,
): Reasoning | undefined {
  const reasoning: Reasoning = {};
  if (effort === 'none') reasoning.enabled = false;
  else if (effort === 'xhigh' || effort === 'max') reasoning.effort = 'high';
  else if (effort !== null && effort !== undefined) reasoning.effort = effort;
  if (summary !== null && summary !== undefined && effort !== 'none') reasoning.summary = summary;
  return Object.keys(reasoning).length > 0 ? reasoning : undefined;
}

/** The derived Reason request. Members that would be empty are left out, so absent means absent. */
export function buildReasonRequest(input: DoorInput): ReasonRequest {
  const valve = input.valve ?? {};
  const derivedPolicy: ModelPolicy = { ...policyOfModel(input.model) };
  if (input.maxOutputTokens !== undefined) derivedPolicy.maxOutputTokens = input.maxOutputTokens;
  const tools = input.tools.map((tool) => {
    const annotations = valve.toolAnnotations?.[tool.name];
    return annotations ? { ...tool, annotations } : tool;
  });
  for (const name of Object.keys(valve.toolAnnotations ?? {})) {
    if (!tools.some((tool) => tool.name === name))
      throw invalidParam(['valve', 'toolAnnotations', name], 'names no tool of the request');
  }
  const request: ReasonRequest = {
    task: valve.task ?? input.task,
    instructions: input.instructions.map((part) => part.text).join('\n\n'),
  };
  const context: ContextItem[] | undefined = valve.context;
  if (context && context.length > 0) request.context = context;
  if (input.conversation.length > 0) request.conversation = input.conversation;
  if (tools.length > 0) request.tools = tools;
  if (input.output) request.output = input.output;
  if (valve.citations === true) request.output = { ...(input.output ?? { format: 'text' }), citations: true };
  const modelPolicy = mergePolicy(derivedPolicy, valve.modelPolicy);
  if (modelPolicy) request.modelPolicy = modelPolicy;
  if (valve.rendering) request.rendering = valve.rendering;
  if (input.cache) request.cache = input.cache;
  if (valve.mediaPolicy) request.mediaPolicy = valve.mediaPolicy;
  if (valve.receiptId) request.receiptId = valve.receiptId;
  if (valve.receiptSalt) request.receiptSalt = valve.receiptSalt;
  if (input.toolChoice !== undefined) request.toolChoice = input.toolChoice;
  if (input.parallelToolCalls !== undefined) request.parallelToolCalls = input.parallelToolCalls;
  const settings = sampling(input.sampling);
  if (settings) request.sampling = settings;
  if (input.reasoning && Object.keys(input.reasoning).length > 0) request.reasoning = input.reasoning;
  return request;
}
