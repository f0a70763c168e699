import { z } from 'zod';
import { onTheWire } from '../../contracts/wire-schema';
import { valveOptionsSchema } from '../valve-options';
import { ignoredFields, responsesNeutralFields } from './neutral-knobs';
import { responsesItemWire } from './wire-parts';

// The Responses API request body as Valve accepts it: stateless (no stored responses, no server-side
// conversation). Top-level fields are strict; input items are read loosely and checked one by one in
// the mapper, so an unsupported item gets an error naming exactly that item.

const itemSchema = onTheWire(
  z.looseObject({ type: z.string().optional(), role: z.string().optional() }),
  responsesItemWire,
);

export const responsesRequestSchema = z.strictObject({
  model: z.string().min(1),
  input: z.union([z.string(), z.array(itemSchema)]),
  instructions: z.string().nullish(),
  stream: z.boolean().nullish(),
  // Stateless: any other value is refused, naming it, by responsesToReason.
  store: onTheWire(z.boolean(), { type: 'boolean', const: false }).nullish(),
  previous_response_id: onTheWire(z.string(), {
    not: {},
    description: 'Valve keeps no responses: null only',
  }).nullish(),
  conversation: onTheWire(z.unknown(), { type: 'null' }).optional(),
  tools: z
    .array(
      z.strictObject({
        type: z.literal('function'),
        name: z.string().min(1),
        description: z.string().nullish(),
        parameters: z.record(z.string(), z.unknown()).nullish(),
        strict: z.boolean().nullish(),
      }),
    )
    .nullish(),
  tool_choice: z
    .union([
      z.enum(['none', 'auto', 'required']),
      z.strictObject({ type: z.literal('function'), name: z.string() }),
    ])
    .nullish(),
  parallel_tool_calls: z.boolean().nullish(),
  temperature: z.number().min(0).max(2).nullish(),
  top_p: z.number().min(0).max(1).nullish(),
  max_output_tokens: z.number().int().min(1).nullish(),
  text: z
    .strictObject({
      format: z
        .discriminatedUnion('type', [
          z.strictObject({ type: z.literal('text') }),
          z.strictObject({ type: z.literal('json_object') }),
          z.strictObject({
            type: z.literal('json_schema'),
            name: z.string().min(1),
            description: z.string().nullish(),
            schema: z.record(z.string(), z.unknown()),
            strict: z.boolean().nullish(),
          }),
        ])
        .nullish(),
      verbosity: z.enum(['low', 'medium', 'high']).nullish(),
    })
    .nullish(),
  ...ignoredFields,
  ...responsesNeutralFields,
  valve: valveOptionsSchema.optional(),
});
export type ResponsesRequest = z.infer<typeof responsesRequestSchema>;
