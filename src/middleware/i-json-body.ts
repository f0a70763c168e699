import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../env';
import { ApiError } from '../errors';
import { findDuplicateKeys, type IJsonProblem } from '../receipts/i-json';

// Receipts commit to I-JSON (receipts.md): values with duplicate member names are ambiguous, and
// JSON.parse hides them by keeping the last one, so the raw text is checked before anything parses it.

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

/** 400 for a JSON body with a duplicate member name anywhere; must run before the body is parsed. */
export const rejectDuplicateKeys = createMiddleware<AppEnv>(async (c, next) => {
  if (/json/i.test(c.req.header('Content-Type') ?? '')) {
    const text = await c.req.text();
    let parses = true;
    try {
      JSON.parse(text);
    } catch {
      parses = false; // requireJson answers malformed JSON
    }
    const problems = parses ? findDuplicateKeys(text) : [];
    if (problems.length > 0) throw iJsonError(problems);
  }
  await next();
});
