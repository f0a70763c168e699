import { zValidator } from '@hono/zod-validator';
import { createMiddleware } from 'hono/factory';
import type { z } from 'zod';
import type { AppEnv } from '../env';
import { ApiError } from '../errors';

const jsonType = /^application\/(?:[a-z0-9.+-]+\+)?json\s*(?:;|$)/i;

/** 415 for a body that is not JSON, 400 for JSON that does not parse; the parsed body is cached for the validator. */
export const requireJson = createMiddleware<AppEnv>(async (c, next) => {
  if (!jsonType.test(c.req.header('Content-Type') ?? '')) {
    throw new ApiError(
      'request.unsupported_media_type',
      'Send the body as `Content-Type: application/json`.',
    );
  }
  try {
    await c.req.json();
  } catch {
    throw new ApiError('request.malformed_json', 'The body is not valid JSON.');
  }
  await next();
});

/** One issue of a failed validation: where, and what is wrong — never the value that was sent. */
export interface ValidationIssue {
  path: string;
  code: string;
  message: string;
}

function pointer(path: readonly PropertyKey[]): string {
  return `/${path.map((part) => String(part).replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`;
}

export function describeIssues(error: { issues: readonly z.core.$ZodIssue[] }): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        issues.push({
          path: pointer([...issue.path, key]),
          code: issue.code,
          message: `unknown field \`${key}\``,
        });
      }
    } else {
      issues.push({ path: pointer(issue.path), code: issue.code, message: issue.message });
    }
  }
  return issues;
}

export function validationError(error: { issues: readonly z.core.$ZodIssue[] }): ApiError {
  const issues = describeIssues(error);
  const first = issues[0];
  const summary = first ? `${first.path}: ${first.message}` : 'invalid';
  return new ApiError('request.invalid', `The request is invalid (${summary}).`, { details: { issues } });
}

/** zod validation of a JSON body whose failure throws Valve's own error instead of the library's result. */
export function validJson<T extends z.ZodType>(schema: T) {
  return zValidator('json', schema, (result) => {
    if (!result.success) throw validationError(result.error);
  });
}
