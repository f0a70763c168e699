import { Validator } from '@cfworker/json-schema';
import errorSchema from '../../schemas/error.schema.json';
import requestSchema from '../../schemas/reason-request.schema.json';
import responseSchema from '../../schemas/reason-response.schema.json';

// The published JSON Schemas, checked by an implementation independent of zod.
export const requestValidator = new Validator(requestSchema as object, '2020-12', false);
export const responseValidator = new Validator(responseSchema as object, '2020-12', false);
export const errorValidator = new Validator(errorSchema as object, '2020-12', false);

export function validates(validator: Validator, value: unknown): boolean {
  return validator.validate(value).valid;
}
