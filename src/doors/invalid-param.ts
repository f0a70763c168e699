import { ApiError } from '../errors';

export type ParamPath = readonly (string | number)[];

/** A JSON pointer (`/messages/0/content`) from a path of members and indices. */
export function pointerOf(path: ParamPath): string {
  return `/${path.map((part) => String(part).replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`;
}

/** The OpenAI spelling of a body path: `messages[0].content`, from a JSON pointer. */
export function openaiParamOf(pointer: string): string | null {
  if (pointer === '' || pointer === '/') return null;
  const parts = pointer
    .slice(1)
    .split('/')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
  let param = '';
  for (const part of parts) param += /^\d+$/.test(part) ? `[${part}]` : param === '' ? part : `.${part}`;
  return param;
}

/** The 400 of a body that is valid JSON of the right shape but cannot be mapped: it names the field. */
export function invalidParam(path: ParamPath, message: string): ApiError {
  const param = openaiParamOf(pointerOf(path));
  return new ApiError('request.invalid', `Invalid '${param}': ${message}.`, {
    details: { issues: [{ path: pointerOf(path), code: 'openai_mapping', message }] },
  });
}
