import { type Schema, Validator } from '@cfworker/json-schema';
import { describe, expect, it } from 'vitest';
import { sampleValue } from '../../../src/providers/sim/sample-value';

// A nested Pydantic model, as `model_json_schema()` writes it and LangChain and litellm send it as
// response_format: the nested models are `$defs` reached by `$ref`.
const person: Schema = {
  $defs: {
    Address: {
      type: 'object',
      properties: { city: { type: 'string' }, zip: { anyOf: [{ type: 'string' }, { type: 'null' }] } },
      required: ['city', 'zip'],
      additionalProperties: false,
    },
  },
  type: 'object',
  properties: {
    name: { type: 'string' },
    home: { $ref: '#/$defs/Address' },
    past: { type: 'array', items: { $ref: '#/$defs/Address' } },
  },
  required: ['name', 'home', 'past'],
  additionalProperties: false,
};

describe('sampleValue', () => {
  it('follows local $refs into $defs, so a nested model’s value validates', () => {
    const value = sampleValue(person, 'seed');
    expect(value).toEqual({
      name: 'sim-name',
      home: { city: 'sim-city', zip: 'sim-zip' },
      past: [{ city: 'sim-city', zip: 'sim-zip' }],
    });
    expect(new Validator(person, '2020-12').validate(value).valid).toBe(true);
  });

  it('keeps the keywords written beside a $ref', () => {
    const schema = { $defs: { Code: { type: 'string' } }, $ref: '#/$defs/Code', minLength: 12 };
    expect(sampleValue(schema, 'x')).toBe('sim-xxxxxxxx');
  });

  it('stops on a recursive $ref instead of looping', () => {
    const tree = {
      $defs: { Node: { type: 'object', properties: { child: { $ref: '#/$defs/Node' } } } },
      $ref: '#/$defs/Node',
    };
    expect(JSON.stringify(sampleValue(tree))).toMatch(/null/);
  });
});
