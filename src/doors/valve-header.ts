import { parseJson } from '../encoding/json-depth';
import { ApiError } from '../errors';
import { describeZodIssue } from './describe-zod-issue';
import { type ValveOptions, valveOptionsSchema } from './valve-options';

// Valve's options as a header, `x-valve-options: <JSON>`, for clients whose body the caller does not
// write: Claude Code sends the headers of ANTHROPIC_CUSTOM_HEADERS with every request, and nothing of
// its own in the body. The header holds exactly what the body's `valve` member would.

export const valveHeader = 'x-valve-options';

/** The options a header carries, checked as strictly as the `valve` member; a 400 naming the header. */
export function valveOptionsOfHeader(raw: string): ValveOptions {
  const parsed = parseJson(raw);
  if (!parsed.ok)
    throw new ApiError('request.invalid', `The ${valveHeader} header is not a JSON object.`, {
      details: { issues: [{ path: `header:${valveHeader}`, code: 'invalid_json', message: 'is not JSON' }] },
    });
  const checked = valveOptionsSchema.safeParse(parsed.value);
  if (checked.success) return checked.data;
  const problem = describeZodIssue(checked.error.issues[0]);
  throw new ApiError('request.invalid', `The ${valveHeader} header is not valid: ${problem}.`, {
    details: { issues: [{ path: `header:${valveHeader}`, code: 'valve_options', message: problem }] },
  });
}

/** The body with the header's options as its `valve` member; a 400 when both carry options. */
export function withHeaderOptions<T extends { valve?: ValveOptions }>(body: T, raw: string | undefined): T {
  if (raw === undefined) return body;
  if (body.valve !== undefined)
    throw new ApiError(
      'request.invalid',
      `Valve options came both in the body's valve member and in the ${valveHeader} header: send them in one place.`,
      { details: { issues: [{ path: '/valve', code: 'valve_options', message: 'also sent as a header' }] } },
    );
  return { ...body, valve: valveOptionsOfHeader(raw) };
}
