import { type Schema, Validator } from '@cfworker/json-schema';

/** One validation error: where in the value, and what rule it broke (never the value itself). */
export interface SchemaIssue {
  path: string;
  keyword: string;
  message: string;
}

export type SchemaCheck = { ok: true } | { ok: false; issues: SchemaIssue[] };

const validators = new WeakMap<object, Validator>();

/**
 * Validates a value against a JSON Schema (draft 2020-12) with @cfworker/json-schema, which interprets
 * the schema instead of generating code, so it runs on Workers. Validators are cached per schema object.
 */
export function checkAgainstSchema(value: unknown, schema: Record<string, unknown>): SchemaCheck {
  let validator = validators.get(schema);
  if (!validator) {
    validator = new Validator(schema as Schema, '2020-12', false);
    validators.set(schema, validator);
  }
  const result = validator.validate(value);
  if (result.valid) return { ok: true };
  // The leaf errors say what is wrong; the `properties`/`$ref` wrappers above them only repeat it.
  const leaves = result.errors.filter((e) => !['properties', 'items', '$ref', 'allOf'].includes(e.keyword));
  const issues = (leaves.length > 0 ? leaves : result.errors).slice(0, 20).map((e) => ({
    path: e.instanceLocation,
    keyword: e.keyword,
    message: e.error,
  }));
  return { ok: false, issues };
}

/** The issues as one line each, for a message or the model's repair feedback. */
export function describeIssues(issues: readonly SchemaIssue[], separator = '\n'): string {
  return issues.map((issue) => `${issue.path}: ${issue.message}`).join(separator);
}
