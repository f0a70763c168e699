import type { DecisionAttempt, UnsignedResponse } from '../contracts/reason-response';
import type { ModelResponse } from '../model/model-response';
import type { PlannedAttempt } from '../policy/plan-types';
import { buildOutput } from './build-output';
import type { ParsedJson } from './check-output';
import { decisionOf } from './decision-of';
import type { PreparedReason } from './prepare-reason';
import { reasonUsageOf } from './reason-usage-of';
import { reasoningItemsOf } from './reasoning-items';
import { unreplayedWarnings } from './replayable-reasoning';
import { wellFormedDeep } from './well-formed';

/**
 * The Reason response of a model's answer, the same for JSON and streams (a stream assembles exactly
 * what it sent into a ModelResponse first). Invalid tool calls go into `decision.invalidToolCalls`
 * with one `tool.invalid_call` warning each.
 */
export function answerOf(
  prepared: PreparedReason,
  response: ModelResponse,
  attempt: PlannedAttempt,
  attempts: DecisionAttempt[],
  latencyMs: number,
  json?: ParsedJson,
): UnsignedResponse {
  const { request, prompt, plan, budget } = prepared;
  const { output, toolCalls, invalidToolCalls, warnings } = buildOutput(request, response, prompt, json);
  const decision = decisionOf(plan, attempts, budget);
  if (invalidToolCalls.length > 0) decision.invalidToolCalls = invalidToolCalls;
  const origin = { provider: attempt.provider, model: attempt.model };
  const reasoning = reasoningItemsOf(response.message.content, origin);
  const answer: UnsignedResponse = {
    receiptId: prepared.receiptId,
    task: request.task,
    output,
    ...(reasoning.length > 0 && { reasoning }),
    toolCalls,
    finishReason: response.finish_reason,
    model: { provider: attempt.provider, model: attempt.model, region: attempt.region },
    usage: reasonUsageOf(response.usage),
    costUsd: budget.spentUsd,
    latencyMs: Math.max(0, Math.round(latencyMs)),
    decision,
    warnings: [
      ...prompt.warnings,
      ...unreplayedWarnings(request, origin),
      ...(response.warnings ?? []),
      ...warnings,
      ...invalidToolCalls.map((call) => ({
        code: 'tool.invalid_call',
        message: `Tool call ${call.id} (${call.name ?? 'unnamed'}) was not handed over: ${call.error}`,
      })),
    ],
  };
  // A model may emit lone surrogates; the answer (and the receipt that commits to it) must be I-JSON.
  const repaired = wellFormedDeep(answer);
  if (repaired.replaced === 0) return answer;
  return {
    ...repaired.value,
    warnings: [
      ...repaired.value.warnings,
      {
        code: 'model.output_repaired',
        message: `${repaired.replaced} lone surrogate code unit(s) in the model's answer were replaced by U+FFFD.`,
      },
    ],
  };
}
