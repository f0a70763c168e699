type Schema = Record<string, unknown>;

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function firstType(schema: Schema): string | undefined {
  const type = schema.type;
  if (typeof type === 'string') return type;
  if (Array.isArray(type))
    return type.find((t): t is string => typeof t === 'string' && t !== 'null') ?? 'null';
  if (isSchema(schema.properties)) return 'object';
  if (schema.items !== undefined) return 'array';
  return undefined;
}

function sampleString(schema: Schema, seed: string): string {
  const minLength = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const maxLength = typeof schema.maxLength === 'number' ? schema.maxLength : Number.POSITIVE_INFINITY;
  switch (schema.format) {
    case 'date-time':
      return '2026-01-01T00:00:00Z';
    case 'date':
      return '2026-01-01';
    case 'email':
      return 'sim@example.com';
    case 'uri':
      return 'https://example.com/sim';
    case 'uuid':
      return '00000000-0000-4000-8000-000000000000';
  }
  let text = `sim-${seed}`;
  while (text.length < minLength) text += 'x';
  return text.slice(0, Math.max(minLength, Math.min(text.length, maxLength)));
}

function sampleNumber(schema: Schema, integer: boolean): number {
  const min = typeof schema.minimum === 'number' ? schema.minimum : undefined;
  const exclusiveMin = typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum : undefined;
  const max = typeof schema.maximum === 'number' ? schema.maximum : undefined;
  let value = min ?? (exclusiveMin !== undefined ? exclusiveMin + 1 : 0);
  if (max !== undefined && value > max) value = max;
  return integer ? Math.ceil(value) : value;
}

/** The schema a local `$ref` (`#/$defs/Address`, as Pydantic writes nested models) points at. */
function resolveRef(ref: string, root: Schema): unknown {
  if (!ref.startsWith('#')) return undefined;
  let at: unknown = root;
  for (const part of ref.slice(1).split('/').slice(1)) {
    const key = decodeURIComponent(part).replace(/~1/g, '/').replace(/~0/g, '~');
    at = isSchema(at) ? at[key] : undefined;
  }
  return at;
}

function sample(schema: unknown, seed: string, depth: number, root: Schema): unknown {
  if (!isSchema(schema) || depth > 16) return null;
  if (typeof schema.$ref === 'string') {
    const { $ref, ...rest } = schema;
    const target = resolveRef($ref, root);
    return sample(isSchema(target) ? { ...target, ...rest } : rest, seed, depth + 1, root);
  }
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  for (const key of ['oneOf', 'anyOf'] as const) {
    const options = schema[key];
    if (Array.isArray(options) && options.length > 0) return sample(options[0], seed, depth + 1, root);
  }
  if (Array.isArray(schema.allOf)) {
    const merged: Schema = {};
    for (const part of schema.allOf) if (isSchema(part)) Object.assign(merged, part);
    return sample({ ...merged, ...schema, allOf: undefined }, seed, depth + 1, root);
  }
  switch (firstType(schema)) {
    case 'object': {
      const properties = isSchema(schema.properties) ? schema.properties : {};
      const required = Array.isArray(schema.required)
        ? schema.required.filter((r) => typeof r === 'string')
        : [];
      const value: Record<string, unknown> = {};
      for (const name of new Set([...Object.keys(properties), ...required])) {
        value[name] = sample(properties[name] ?? {}, name, depth + 1, root);
      }
      return value;
    }
    case 'array': {
      const minItems = typeof schema.minItems === 'number' ? schema.minItems : 1;
      return Array.from({ length: minItems }, (_, i) => sample(schema.items, `${seed}${i}`, depth + 1, root));
    }
    case 'string':
      return sampleString(schema, seed);
    case 'integer':
      return sampleNumber(schema, true);
    case 'number':
      return sampleNumber(schema, false);
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      return `sim-${seed}`;
  }
}

/**
 * A deterministic value that validates against a JSON Schema, for the simulator: the common keywords
 * (type, enum, const, properties, required, items, minItems, lengths, bounds, anyOf/oneOf/allOf, and
 * local `$ref`s into the schema's own `$defs`).
 */
export function sampleValue(schema: unknown, seed = 'value'): unknown {
  return sample(schema, seed, 0, isSchema(schema) ? schema : {});
}
