import type { z } from 'zod';
import { invalidParam, type ParamPath } from './invalid-param';

/**
 * A part of a body that zod read loosely (a content block, a tool), read now by its own strict
 * `schema`: the part, or a 400 naming the member that does not fit (an unknown one by its name).
 */
export function readPart<T extends z.ZodType>(schema: T, part: unknown, at: ParamPath): z.infer<T> {
  const result = schema.safeParse(part);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const path = (issue?.path ?? []).map((key) => (typeof key === 'symbol' ? String(key) : key));
  if (issue?.code === 'unrecognized_keys') {
    const key = issue.keys[0] ?? '';
    throw invalidParam([...at, ...path, key], `unknown field \`${key}\``);
  }
  throw invalidParam([...at, ...path], issue?.message ?? 'is not a part Valve reads');
}
