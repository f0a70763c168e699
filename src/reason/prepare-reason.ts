import { generateReceiptId } from '../contracts/generate-receipt-id';
import {
  type ModelPolicy,
  type PrivacyLevel,
  privacyLevels,
  type ReasonRequest,
} from '../contracts/reason-request';
import { ApiError } from '../errors';
import type { Observation } from '../health/health-types';
import type { IssueReceipt } from '../issuance/issue-receipt';
import type { Admission } from '../limits/admission';
import { checkMediaPolicy } from '../media/check-media-policy';
import { measureMedia } from '../media/measure-media';
import { type RequestMedia, readMedia } from '../media/read-media';
import type { Message } from '../model/message';
import type { ModelRequest } from '../model/model-request';
import { type Budget, createBudget } from '../policy/budget';
import type { Catalog, CatalogProvider } from '../policy/catalog';
import { planRequest } from '../policy/plan-request';
import type { HealthView, Needs, Plan, PlannedAttempt } from '../policy/plan-types';
import { chooseLayout, chooseMode } from '../prompt/choose-mode';
import { drawNonce, promptInputs } from '../prompt/draw-nonce';
import { lintInstructions } from '../prompt/lint-instructions';
import { type RenderedPrompt, renderPrompt } from '../prompt/render-prompt';
import { decisionOf } from './decision-of';
import { deriveNeeds, reasoningOf } from './derive-needs';
import type { GateToolCalls } from './gate-tool-calls';
import { keepModelsThatRead } from './keep-models-that-read';

export interface ReasonDeps {
  catalog: Catalog;
  /** Signs and logs the receipt of the finished answer (issuance/); absent in unit tests of the pipeline. */
  issueReceipt?: IssueReceipt;
  /** Signs the capabilities of the calls that may run and keeps the held ones (reason/gate-tool-calls.ts). */
  gateToolCalls?: GateToolCalls;
  /** The privacy of what a request does not label (DEFAULT_PRIVACY); `internal` when absent. */
  defaultPrivacy?: PrivacyLevel;
  /** Reserves up to `wantedUsd` (at least `minimumUsd`) of the tenant's monthly budget, or throws. */
  admit?: (wantedUsd: number, minimumUsd: number) => Promise<Admission>;
  /** Why a provider cannot be used here, or undefined when it can (policy/configured-providers). */
  notConfigured: (provider: CatalogProvider) => string | undefined;
  secret: (name: string) => string | undefined;
  /** A Worker binding by name (Workers AI), or undefined when absent. */
  binding?: (name: string) => unknown;
  fetch: typeof fetch;
  now: () => number;
  startedAt: number;
  randomHex: (bytes: number) => string;
  /** Shared model health, as of the per-isolate cache (health/). */
  health?: HealthView;
  claimProbe?: (attempt: PlannedAttempt) => Promise<boolean>;
  /** Attempt outcomes, recorded to shared health off the response path. */
  observe?: (observation: Observation) => void;
  sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  random: () => number;
}

/**
 * What a door in front of the Reason request knows that the request itself does not say. POST
 * /v1/reason passes none: its requests mean exactly what they say.
 */
export interface ReasonOptions {
  /**
   * The sensitivity of the request's own text (instructions and turns), beyond its context items':
   * the planner excludes the models not allowed it, as it does for context (reason `privacy`).
   */
  privacy?: PrivacyLevel;
  /**
   * The conversation came from whoever talks to the caller's app, not from the caller: its user turns,
   * and the assistant turns and tool results the client sends back, which an injection rides as easily.
   * When there is any turn, every tool call of the answer is tainted, as after untrusted context.
   */
  untrustedTurns?: boolean;
}

/** Everything decided before the first model call, shared by the JSON and the streaming pipeline. */
export interface PreparedReason {
  request: ReasonRequest;
  receiptId: string;
  prompt: RenderedPrompt;
  plan: Plan;
  budget: Budget;
  modelRequest: ModelRequest;
  admission?: Admission;
  /** The request's media, read once and measured (media/), which every later attempt's plan counts too. */
  media: RequestMedia;
}

/** The Retry-After given when an open circuit's reopening time is not known: a half-open probe's usual wait. */
const defaultCircuitRetryMs = 30_000;

/**
 * Render → plan → admission: throws `policy.no_eligible_model` or the tenant's budget refusal. `read`
 * is the request's media as serve read them (media/read-media); they are measured here, once admitted.
 */
export async function prepareReason(
  request: ReasonRequest,
  deps: ReasonDeps,
  options: ReasonOptions = {},
  read: RequestMedia = readMedia(request),
): Promise<PreparedReason> {
  const receiptId = request.receiptId ?? generateReceiptId();
  lintInstructions(request.instructions);
  checkMediaPolicy(read, request.mediaPolicy, options.untrustedTurns === true);
  const inputs = promptInputs(request);
  const secrets = { nonce: drawNonce(deps.randomHex, inputs), canary: drawNonce(deps.randomHex, inputs, 8) };
  const override = request.rendering?.mode;
  const policy = request.modelPolicy ?? {};
  const budget = createBudget(policy, deps.startedAt);
  let media = read;
  const planFor = (messages: Message[]) =>
    planRequest({
      policy,
      needs: atLeast(deriveNeeds(request, messages, media, deps.defaultPrivacy), options.privacy),
      catalog: deps.catalog,
      notConfigured: deps.notConfigured,
      health: deps.health,
      left: { costUsd: policy.maxCostUsd ?? Number.POSITIVE_INFINITY, timeMs: timeLeft(policy, deps) },
    });
  // The mode depends on the planned models and the token estimate on the mode: render, plan, and render
  // and plan once more when the first model's catalog entry asks for another mode.
  const layoutOverride = request.rendering?.layout;
  const untrustedTurns = options.untrustedTurns;
  let prompt = renderPrompt(request, {
    ...secrets,
    mode: override ?? 'tags',
    layout: layoutOverride,
    untrustedTurns,
  });
  if (read.parts.length > 0) {
    // Measuring media reads every byte of them: a tenant who could not pay for the request even without
    // its media is refused first, so a refused request costs no more than its text.
    await admitWithoutMedia(planFor(prompt.messages), deps);
    media = await measureMedia(read);
  }
  let plan = planFor(prompt.messages);
  const planned = plan.attempts.map((attempt) => attempt.entry);
  const mode = chooseMode(override, planned);
  const layout = chooseLayout(layoutOverride, plan.attempts);
  if (mode !== prompt.mode || layout !== prompt.layout) {
    prompt = renderPrompt(request, { ...secrets, mode, layout, untrustedTurns });
    plan = planFor(prompt.messages);
  }
  plan = keepModelsThatRead(plan, mode);
  // Every turn, whatever its role: an assistant turn from the caller is no more trusted than a user turn.
  if (options.untrustedTurns && (request.conversation ?? []).length > 0) {
    prompt = { ...prompt, tainted: true };
  }
  if (plan.attempts.length === 0) throw emptyPlanError(plan, policy, budget, deps);
  const admission = await admitPlan(plan, policy, budget, deps);
  const modelRequest: ModelRequest = {
    messages: prompt.messages,
    tools: toolsOf(request),
    tool_choice: request.toolChoice,
    output: request.output?.format === 'json' ? { schema: request.output.schema ?? {} } : undefined,
    settings: settingsOf(request),
    ...(request.output?.citations === true && { citations: true }),
  };
  return { request, receiptId, prompt, plan, budget, modelRequest, admission, media };
}

/**
 * Why no model can serve the request: a temporary refusal when every model that could is held out
 * only by an open circuit, else `policy.no_eligible_model` naming each exclusion.
 */
function emptyPlanError(plan: Plan, policy: ModelPolicy, budget: Budget, deps: ReasonDeps): ApiError {
  const heldOut = plan.excluded.filter((e) => e.reason === 'circuit_open');
  if (heldOut.length > 0) {
    // A model that passed every lasting check and is held out only by an open circuit will be tried
    // again: a temporary refusal the caller's client retries, not 422's "never".
    const waits = heldOut.map((e) => deps.health?.retryInMs?.(e.provider, e.model) ?? defaultCircuitRetryMs);
    const retryAfterS = Math.max(1, Math.ceil(Math.min(...waits) / 1000));
    return new ApiError(
      'policy.models_unavailable',
      `Every model that could serve this request is held out after provider failures; the first is tried again in about ${retryAfterS} s.`,
      {
        headers: { 'Retry-After': String(retryAfterS) },
        details: {
          retryAfterSeconds: retryAfterS,
          excluded: plan.excluded,
          decision: decisionOf(plan, [], budget),
        },
      },
    );
  }
  return new ApiError(
    'policy.no_eligible_model',
    `No model in the catalog satisfies this request’s policy.${pinnedWhy(policy, plan)}`,
    {
      details: { excluded: plan.excluded, decision: decisionOf(plan, [], budget) },
    },
  );
}

/** Reserves the plan's worst case of the tenant's budget; the reservation caps the request's own budget. */
async function admitPlan(
  plan: Plan,
  policy: ModelPolicy,
  budget: Budget,
  deps: ReasonDeps,
): Promise<Admission | undefined> {
  if (!deps.admit) return undefined;
  const admission = await deps.admit(
    Math.min(policy.maxCostUsd ?? Number.POSITIVE_INFINITY, sumOf(plan.attempts.map((a) => a.worstCaseUsd))),
    Math.min(...plan.attempts.map((a) => a.worstCaseUsd)),
  );
  // The loop can then never spend past the tenant's reservation.
  if (Number.isFinite(admission.budgetUsd)) {
    budget.maxCostUsd = Math.min(budget.maxCostUsd ?? admission.budgetUsd, admission.budgetUsd);
  }
  return admission;
}

/** The caller's tools in the model interface's names. */
function toolsOf(request: ReasonRequest): ModelRequest['tools'] {
  const last = (request.tools?.length ?? 0) - 1;
  return request.tools?.map((tool, i) => ({
    name: tool.name,
    description: tool.description,
    input_schema: tool.inputSchema,
    annotations: tool.annotations && {
      read_only: tool.annotations.readOnly,
      idempotent: tool.annotations.idempotent,
      destructive: tool.annotations.destructive,
    },
    // The tools come first in a cached prompt and are the caller's own bytes: their end is a breakpoint.
    ...(i === last && request.cache?.tools === true && { cache: true as const }),
  }));
}

/**
 * Refuses (402) a request whose cheapest planned attempt does not fit the tenant's budget even before
 * its media are priced (they only add to it), and releases the check's reservation at once. A plan with
 * no attempt is left to the full plan's refusal, which names why.
 */
async function admitWithoutMedia(plan: Plan, deps: ReasonDeps): Promise<void> {
  if (deps.admit === undefined || plan.attempts.length === 0) return;
  const cheapest = Math.min(...plan.attempts.map((a) => a.worstCaseUsd));
  const admission = await deps.admit(cheapest, cheapest);
  await admission.settle(0);
}

/** Why the pinned model, the only one allowed, was excluded: the refusal names it. */
function pinnedWhy(policy: ReasonRequest['modelPolicy'] & object, plan: Plan): string {
  const pinned = policy.pinned;
  if (pinned === undefined || policy.allowFallback !== false) return '';
  const own = plan.excluded.find((e) => e.provider === pinned.provider && e.model === pinned.model);
  if (own === undefined) return '';
  return ` The pinned model ${pinned.provider}/${pinned.model} is excluded (${own.reason}): ${own.detail}.`;
}

/** The caller's generation settings in the model interface's names; absent ones stay absent. */
function settingsOf(request: ReasonRequest): ModelRequest['settings'] {
  const sampling = request.sampling ?? {};
  const settings = {
    temperature: sampling.temperature,
    top_p: sampling.topP,
    stop: sampling.stop,
    seed: sampling.seed,
    parallel_tool_calls: request.parallelToolCalls,
    reasoning: reasoningOf(request),
  };
  const given = Object.entries(settings).filter(([, value]) => value !== undefined);
  return given.length === 0 ? undefined : Object.fromEntries(given);
}

/** Needs whose privacy is at least `floor`. */
function atLeast(needs: Needs, floor: PrivacyLevel | undefined): Needs {
  if (floor === undefined || privacyLevels.indexOf(floor) <= privacyLevels.indexOf(needs.privacy))
    return needs;
  return { ...needs, privacy: floor };
}

function timeLeft(policy: { maxLatencyMs?: number }, deps: ReasonDeps): number {
  if (policy.maxLatencyMs === undefined) return Number.POSITIVE_INFINITY;
  return Math.max(0, policy.maxLatencyMs - (deps.now() - deps.startedAt));
}

function sumOf(values: number[]): number {
  return values.reduce((sum, value) => sum + value, 0);
}
