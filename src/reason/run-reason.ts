import type { ReasonRequest } from '../contracts/reason-request';
import type { ReasonResponse } from '../contracts/reason-response';
import { ApiError } from '../errors';
import type { Catalog } from '../policy/catalog';
import { planRequest } from '../policy/plan-request';
import { chooseMode } from '../prompt/choose-mode';
import { drawNonce, promptInputs } from '../prompt/draw-nonce';
import { lintInstructions } from '../prompt/lint-instructions';
import { renderPrompt } from '../prompt/render-prompt';
import type { Message } from '../providers/types';
import { buildOutput } from './build-output';
import { callAttempts } from './call-attempts';
import { deriveNeeds } from './derive-needs';
import { keepModelsThatRead } from './keep-models-that-read';

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
  lintInstructions(request.instructions);
  const inputs = promptInputs(request);
  const secrets = { nonce: drawNonce(deps.randomHex, inputs), canary: drawNonce(deps.randomHex, inputs, 8) };
  const override = request.rendering?.mode;
  const policy = request.modelPolicy ?? {};
  const planFor = (messages: Message[]) =>
    planRequest({
      policy,
      needs: deriveNeeds(request, messages),
      catalog: deps.catalog,
      isConfigured: (provider) =>
        provider.kind === 'sim' ||
        provider.apiKeyEnv === undefined ||
        Boolean(deps.secret(provider.apiKeyEnv)),
    });
  // The mode depends on the planned models and the token estimate on the mode: render, plan, and render
  // and plan once more when the first model's catalog entry asks for another mode.
  let prompt = renderPrompt(request, { ...secrets, mode: override ?? 'tags' });
  let plan = planFor(prompt.messages);
  const mode = chooseMode(
    override,
    plan.attempts.map((attempt) => attempt.entry),
  );
  if (mode !== prompt.mode) {
    prompt = renderPrompt(request, { ...secrets, mode });
    plan = planFor(prompt.messages);
  }
  plan = keepModelsThatRead(plan, mode);
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
  const { output, toolCalls, warnings } = buildOutput(request, result.response, prompt);
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
    warnings: [...prompt.warnings, ...(result.response.warnings ?? []), ...warnings],
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
