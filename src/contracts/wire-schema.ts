import { z } from 'zod';

// Where a contract's zod schema says less than the server checks (a refinement, a transform, a field
// read loosely and checked by a mapper), the JSON Schema the OpenAPI document gives for it is recorded
// here, so that the document states the constraint instead of zod's looser picture of it.

/** A JSON Schema, as the OpenAPI document writes it. */
export type WireSchema = Record<string, unknown>;

export const wireSchemas = z.registry<WireSchema>();

/** A zod schema with the JSON Schema the OpenAPI document gives for it. */
export function onTheWire<T extends z.ZodType>(schema: T, wire: WireSchema): T {
  wireSchemas.add(schema, wire);
  return schema;
}
