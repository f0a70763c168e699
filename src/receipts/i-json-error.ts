import { ApiError } from '../errors';
import type { IJsonProblem } from './i-json';

/** A request a receipt could not commit to, as the one `request.invalid` body with one issue per problem. */
export function iJsonError(problems: readonly IJsonProblem[]): ApiError {
  const issues = problems.map((p) => ({
    path: p.path,
    code: `i-json.${p.problem}`,
    message: `not I-JSON (${p.problem}); a receipt cannot commit to it`,
  }));
  const first = issues[0];
  return new ApiError('request.invalid', `The request is invalid (${first?.path}: ${first?.message}).`, {
    details: { issues },
  });
}
