import type { ReasonRequest } from '../contracts/reason-request';
import type { ReasonResponse } from '../contracts/reason-response';
import { ApiError } from '../errors';
import type { Observation } from '../health/health-types';
import { createBudget } from '../policy/budget';
import type { Catalog, CatalogProvider } from '../policy/catalog';
import { planRequest } from '../policy/plan-request';
import type { HealthView, PlannedAttempt } from '../policy/plan-types';
import { renderPrompt } from '../prompt/render-prompt';
import { buildOutput } from './build-output';
import { callAttempts } from './call-attempts';
import { decisionOf } from './decision-of';
import { deriveNeeds } from './derive-needs';

/** A tenant's spend reservation for one request: the most it may spend, settled to the actual cost. */
export interface Admission {
  budgetUsd: number;
  settle(actualUsd: number): Promise<void>;
}

/** A finished answer before its receipt. */
export type UnsignedResponse = Omit<ReasonResponse, 'receipt'>;

/** Signs and logs the receipt of a finished answer (receipts/, log/). */
export type IssueReceipt = (
  request: ReasonRequest,
  response: UnsignedResponse,
) => Promise<ReasonResponse['receipt']>;

export interface ReasonDeps {
  catalog: Catalog;
  issueReceipt: IssueReceipt;
  /** Reserves up to `wantedUsd` (at least `minimumUsd`) of the tenant's monthly budget, or throws. */
  admit?: (wantedUsd: number, minimumUsd: number) => Promise<Admission>;
  /** Why a provider cannot be used here, or undefined when it can (policy/configured-providers). */
  notConfigured: (provider: CatalogProvider) => string | undefined;
  secret: (name: string) => string | undefined;
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

/** The request pipeline: render → plan → call, retry, fail over → check → response. */
export async function runReason(request: ReasonRequest, deps: ReasonDeps): Promise<ReasonResponse> {
  const receiptId = request.receiptId ?? crypto.randomUUID();
  const prompt = renderPrompt(request, { nonce: deps.randomHex(16), canary: deps.randomHex(8) });
  const needs = deriveNeeds(request, prompt.messages);
  const policy = request.modelPolicy ?? {};
  const budget = createBudget(policy, deps.startedAt);
  const plan = planRequest({
    policy,
    needs,
    catalog: deps.catalog,
    notConfigured: deps.notConfigured,
    health: deps.health,
    left: { costUsd: policy.maxCostUsd ?? Number.POSITIVE_INFINITY, timeMs: timeLeft(policy, deps) },
  });
  if (plan.attempts.length === 0) {
    throw new ApiError(
      'policy.no_eligible_model',
      'No model in the catalog satisfies this request’s policy.',
      {
        details: { excluded: plan.excluded, decision: decisionOf(plan, [], budget) },
      },
    );
  }
  const tools = request.tools?.map((tool) => ({
    name: tool.name,
    description: tool.description,
    input_schema: tool.inputSchema,
    annotations: tool.annotations && {
      read_only: tool.annotations.readOnly,
      idempotent: tool.annotations.idempotent,
      destructive: tool.annotations.destructive,
    },
  }));
  // The tenant's reservation caps the request's own budget, so the loop can never spend past it.
  const admission = deps.admit
    ? await deps.admit(
        Math.min(
          policy.maxCostUsd ?? Number.POSITIVE_INFINITY,
          sumOf(plan.attempts.map((a) => a.worstCaseUsd)),
        ),
        Math.min(...plan.attempts.map((a) => a.worstCaseUsd)),
      )
    : undefined;
  if (admission) budget.maxCostUsd = Math.min(budget.maxCostUsd ?? admission.budgetUsd, admission.budgetUsd);
  let result: Awaited<ReturnType<typeof callAttempts>>;
  try {
    result = await callAttempts(
      plan,
      budget,
      {
        messages: prompt.messages,
        tools,
        output: request.output?.format === 'json' ? { schema: request.output.schema ?? {} } : undefined,
      },
      {
        secret: deps.secret,
        fetch: deps.fetch,
        now: deps.now,
        sleep: deps.sleep,
        random: deps.random,
        claimProbe: deps.claimProbe,
        observe: deps.observe,
      },
    );
  } finally {
    // What the attempts were billed (the loop records failures at their billed or worst-case cost).
    await admission?.settle(budget.spentUsd);
  }
  const response = result.value;
  const { output, toolCalls } = buildOutput(request, response, prompt.tainted);
  const usage = response.usage;
  const answer: UnsignedResponse = {
    receiptId,
    task: request.task,
    output,
    toolCalls,
    finishReason: response.finish_reason,
    model: { provider: result.attempt.provider, model: result.attempt.model, region: result.attempt.region },
    usage: {
      inputTokens: usage.input_tokens,
      outputTokens: usage.output_tokens,
      reasoningTokens: usage.reasoning_tokens ?? 0,
      cacheReadTokens: usage.cache_read_tokens ?? 0,
    },
    costUsd: budget.spentUsd,
    latencyMs: Math.max(0, Math.round(deps.now() - deps.startedAt)),
    decision: decisionOf(plan, result.attempts, budget),
    warnings: [...prompt.warnings, ...(response.warnings ?? [])],
  };
  // The receipt commits to exactly this answer; streaming calls the same hook for its terminal event.
  return { ...answer, receipt: await deps.issueReceipt(request, answer) };
}

function timeLeft(policy: { maxLatencyMs?: number }, deps: ReasonDeps): number {
  if (policy.maxLatencyMs === undefined) return Number.POSITIVE_INFINITY;
  return Math.max(0, policy.maxLatencyMs - (deps.now() - deps.startedAt));
}

function sumOf(values: number[]): number {
  return values.reduce((sum, value) => sum + value, 0);
}
