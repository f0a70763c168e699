import type { ReasonRequest } from '../contracts/reason-request';
import type { ReasonResponse, UnsignedResponse } from '../contracts/reason-response';
import type { IssueReceipt } from '../issuance/issue-receipt';
import type { ModelResponse } from '../model/model-response';
import { answerOf } from './answer-of';
import { callAttempts } from './call-attempts';
import { callWithRepair } from './check-output';
import { issueAnswer } from './issue-answer';
import { type PreparedReason, prepareReason, type ReasonDeps, type ReasonOptions } from './prepare-reason';
import { withWarnings } from './with-warnings';

/** The request pipeline: render → plan → call, retry, fail over → check (one JSON repair) → response. */
export async function runReason(
  request: ReasonRequest,
  deps: ReasonDeps & { issueReceipt: IssueReceipt },
  options?: ReasonOptions,
): Promise<ReasonResponse>;
/** Without a receipt hook (pipeline unit tests) the answer is unsigned. */
export async function runReason(
  request: ReasonRequest,
  deps: ReasonDeps,
  options?: ReasonOptions,
): Promise<UnsignedResponse>;
export async function runReason(
  request: ReasonRequest,
  deps: ReasonDeps,
  options: ReasonOptions = {},
): Promise<UnsignedResponse | ReasonResponse> {
  return answerReason(await prepareReason(request, deps, options), deps);
}

/** The JSON answer of a prepared request: call, retry, fail over → check (one JSON repair) → response. */
export async function answerReason(
  prepared: PreparedReason,
  deps: ReasonDeps & { issueReceipt: IssueReceipt },
): Promise<ReasonResponse>;
export async function answerReason(prepared: PreparedReason, deps: ReasonDeps): Promise<UnsignedResponse>;
export async function answerReason(
  prepared: PreparedReason,
  deps: ReasonDeps,
): Promise<UnsignedResponse | ReasonResponse> {
  const { budget, admission } = prepared;
  let result: Awaited<ReturnType<typeof callWithRepair<ModelResponse>>>;
  try {
    result = await callWithRepair(prepared, (modelRequest, attemptPlan) =>
      callAttempts(attemptPlan, budget, modelRequest, deps),
    );
  } finally {
    // What the attempts were billed (the loop records failures at their billed or worst-case cost).
    await admission?.settle(budget.spentUsd);
  }
  const answer = answerOf(
    prepared,
    withWarnings(result.value, result.warnings),
    result.attempt,
    result.attempts,
    deps.now() - deps.startedAt,
    result.json,
  );
  // The receipt commits to exactly this answer; streaming calls the same hook for its terminal event.
  if (deps.issueReceipt === undefined) return answer;
  return issueAnswer(prepared.request, answer, { ...deps, issueReceipt: deps.issueReceipt });
}
