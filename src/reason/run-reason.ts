import type { ReasonRequest } from '../contracts/reason-request';
import type { ReasonResponse } from '../contracts/reason-response';
import { ApiError } from '../errors';
import type { Catalog } from '../policy/catalog';
import { planRequest } from '../policy/plan-request';
import { renderPrompt } from '../prompt/render-prompt';
import { buildOutput } from './build-output';
import { callAttempts } from './call-attempts';
import { deriveNeeds } from './derive-needs';

/** A tenant's spend reservation for one request: the most it may spend, settled to the actual cost. */
export interface Admission {
  budgetUsd: number;
  settle(actualUsd: number): Promise<void>;
}

export interface ReasonDeps {
  /** Reserves up to `wantedUsd` (at least `minimumUsd`) of the tenant's budget, or throws. */
  admit?: (wantedUsd: number, minimumUsd: number) => Promise<Admission>;
  catalog: Catalog;
  secret: (name: string) => string | undefined;
  fetch: typeof fetch;
  now: () => number;
  startedAt: number;
  randomHex: (bytes: number) => string;
}

/** The request pipeline: render → plan → call, retry, fail over → check → response. */
export async function runReason(request: ReasonRequest, deps: ReasonDeps): Promise<ReasonResponse> {
  const receiptId = request.receiptId ?? crypto.randomUUID();
  const prompt = renderPrompt(request, { nonce: deps.randomHex(16), canary: deps.randomHex(8) });
  const needs = deriveNeeds(request, prompt.messages);
  const policy = request.modelPolicy ?? {};
  const plan = planRequest({
    policy,
    needs,
    catalog: deps.catalog,
    isConfigured: (provider) =>
      provider.kind === 'sim' || provider.apiKeyEnv === undefined || Boolean(deps.secret(provider.apiKeyEnv)),
  });
  if (plan.attempts.length === 0) {
    throw new ApiError(
      'policy.no_eligible_model',
      'No model in the catalog satisfies this request’s policy.',
      {
        details: { excluded: plan.excluded },
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
  const worstCaseUsd = plan.attempts.reduce((sum, a) => sum + a.estCostUsd, 0);
  const cheapestUsd = Math.min(...plan.attempts.map((a) => a.estCostUsd));
  const admission = deps.admit
    ? await deps.admit(Math.min(policy.maxCostUsd ?? worstCaseUsd, worstCaseUsd), cheapestUsd)
    : undefined;
  const maxCostUsd = admission
    ? Math.min(policy.maxCostUsd ?? admission.budgetUsd, admission.budgetUsd)
    : policy.maxCostUsd;
  let result: Awaited<ReturnType<typeof callAttempts>>;
  try {
    result = await callAttempts(
      plan,
      {
        messages: prompt.messages,
        tools,
        output: request.output?.format === 'json' ? { schema: request.output.schema ?? {} } : undefined,
      },
      {
        secret: deps.secret,
        fetch: deps.fetch,
        now: deps.now,
        startedAt: deps.startedAt,
        maxLatencyMs: policy.maxLatencyMs,
        maxCostUsd,
      },
    );
  } catch (error) {
    await admission?.settle(spentBy(error));
    throw error;
  }
  await admission?.settle(result.costUsd);
  const { output, toolCalls } = buildOutput(request, result.response, prompt.tainted);
  const usage = result.response.usage;
  return {
    receiptId,
    task: request.task,
    output,
    toolCalls,
    finishReason: result.response.finish_reason,
    model: { provider: result.attempt.provider, model: result.attempt.model, region: result.attempt.region },
    usage: {
      inputTokens: usage.input_tokens,
      outputTokens: usage.output_tokens,
      reasoningTokens: usage.reasoning_tokens ?? 0,
      cacheReadTokens: usage.cache_read_tokens ?? 0,
    },
    costUsd: result.costUsd,
    latencyMs: Math.max(0, Math.round(deps.now() - deps.startedAt)),
    decision: {
      prefer: plan.prefer,
      plan: plan.attempts.map((a) => ({
        provider: a.provider,
        model: a.model,
        estCostUsd: a.estCostUsd,
        estLatencyMs: a.estLatencyMs,
      })),
      excluded: plan.excluded,
      attempts: result.attempts,
    },
    warnings: [...prompt.warnings, ...(result.response.warnings ?? [])],
  };
}

/** What the attempts of a failed request were billed, from the trace its error carries. */
function spentBy(error: unknown): number {
  const attempts = error instanceof ApiError ? error.details?.attempts : undefined;
  if (!Array.isArray(attempts)) return 0;
  return attempts.reduce(
    (sum: number, a: { costUsd?: unknown }) => sum + (typeof a.costUsd === 'number' ? a.costUsd : 0),
    0,
  );
}
