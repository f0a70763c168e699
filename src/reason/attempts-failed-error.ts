import type { Decision, DecisionAttempt } from '../contracts/reason-response';
import { ApiError } from '../errors';

/**
 * A request whose attempts all failed (or whose answer never validated): the last failure's code,
 * message and headers, with the decision trace beside it. On the wire the trace is `details.decision`;
 * in code it is read from here, never fished out of the details.
 */
export class AttemptsFailedError extends ApiError {
  readonly decision: Decision;

  constructor(
    code: string,
    message: string,
    options: { details: Record<string, unknown>; decision: Decision; headers?: Record<string, string> },
  ) {
    super(code, message, {
      details: { ...options.details, decision: options.decision },
      headers: options.headers,
    });
    this.name = 'AttemptsFailedError';
    this.decision = options.decision;
  }

  /** Every attempt made, in order, with what each cost. */
  get attempts(): DecisionAttempt[] {
    return this.decision.attempts;
  }

  /** What the attempts spent, as the budget counted it. */
  get spentUsd(): number {
    return this.decision.budget?.spentUsd ?? 0;
  }
}
