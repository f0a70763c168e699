import { z } from 'zod';
import { onTheWire } from './wire-schema';

// Query parameters arrive as text, once or repeated (Hono hands a repeated one over as an array). Each
// parser here reads the text strictly and says in its 400 what is wrong, never "received NaN"; and
// states how the parameter is written on the wire (`onTheWire`), which is what the OpenAPI document
// shows in place of zod's own picture of a string being parsed.

/** One text value: a missing one is required, a repeated one must be given once. */
export function queryText() {
  return z.string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be given once') });
}

/** A whole number in decimal digits: `1e3`, `0x10`, `1.0` and the empty string are refused, not coerced. */
export function queryInteger(min: number, max = Number.MAX_SAFE_INTEGER) {
  return onTheWire(
    queryText()
      .refine((text) => /^\d+$/.test(text), 'must be a whole number')
      .transform(Number)
      .pipe(z.number().int().min(min).max(max)),
    { type: 'integer', minimum: min, maximum: max },
  );
}

/**
 * A list of distinct values, comma-separated (`model,day`) or repeated (`?groupBy=model&groupBy=day`).
 * The document states the comma-separated form (`style: form, explode: false`).
 */
export function queryList<const T extends readonly [string, ...string[]]>(values: T) {
  return onTheWire(
    z
      .union([z.string(), z.array(z.string())])
      .transform((given) => (Array.isArray(given) ? given : [given]).flatMap((v) => v.split(',')))
      .pipe(
        z
          .array(z.enum(values, { error: `must be ${values.join(' or ')}` }))
          .refine((list) => new Set(list).size === list.length, 'must not name a value twice'),
      ),
    { type: 'array', items: { type: 'string', enum: [...values] }, minItems: 1, uniqueItems: true },
  );
}
