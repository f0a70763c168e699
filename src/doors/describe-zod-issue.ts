import type { z } from 'zod';

/** One zod issue as a phrase: where (`modelPolicy.maxCostUsd`) and what is wrong, never the value sent. */
export function describeZodIssue(issue: z.core.$ZodIssue | undefined): string {
  if (issue === undefined) return 'it is not valid';
  const path = issue.path.map(String).join('.');
  if (issue.code === 'unrecognized_keys') {
    const key = issue.keys[0] ?? '';
    return `unknown field \`${path === '' ? key : `${path}.${key}`}\``;
  }
  return path === '' ? issue.message : `${path}: ${issue.message}`;
}
