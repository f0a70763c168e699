// What of a provider's error reaches a caller. A provider's error text is written by someone else and
// has been seen to carry key fragments, Valve's own system policy with its canary and nonce, and the
// caller's content echoed back — verbatim, lower-cased, or in pieces too short for any match to catch.
// So none of it is shown, matched or not: the message a caller reads is built only from allow-listed
// parts — a fixed sentence for the failure's kind, the adapter, the HTTP status, and the provider's
// error code when it is code-shaped — and the request id only when it is one token.

import { lookupErrorCode } from '../../errors';
import type { ModelErrorKind } from '../../model/model-error';
import { spellsKey } from './key-spellings';

// A provider's error code and a request id are shown as they are only when they look like one:
// a code is snake_case words in one case (`invalid_request_error`, `RESOURCE_EXHAUSTED`) or a short
// number; a request id is one token of letters, digits and `_.:-`. Neither may spell a key.
const codeShape = /^(?:[a-z]{1,32}(?:_[a-z]{1,32}){0,5}|[A-Z]{1,32}(?:_[A-Z]{1,32}){0,5}|\d{1,6})$/;
const requestIdShape = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$/;

/** The provider's error code, or undefined when it is not code-shaped or spells one of `keys`. */
export function scrubProviderCode(
  code: string | undefined,
  keys: readonly string[] = [],
): string | undefined {
  return code !== undefined && code.length <= 64 && codeShape.test(code) && !spellsKey(code, keys)
    ? code
    : undefined;
}

/** The provider's request id, or undefined when it is not one token or spells one of `keys`. */
export function scrubRequestId(id: string | undefined, keys: readonly string[] = []): string | undefined {
  return id !== undefined && requestIdShape.test(id) && !spellsKey(id, keys) ? id : undefined;
}

/** The parts of a provider failure a caller may read, each already allow-listed. */
export interface ErrorSummaryParts {
  kind: ModelErrorKind;
  /** The adapter's kind (`openai`), Valve's own name for it. */
  provider: string;
  status?: number;
  /** A code that passed `scrubProviderCode`. */
  code?: string;
}

/**
 * The message of a provider failure: the registry's sentence for `model.<kind>`, then the adapter, the
 * HTTP status and the provider's code when there are — never a word of the provider's own text.
 */
export function providerErrorMessage({ kind, provider, status, code }: ErrorSummaryParts): string {
  const facts = [provider, status !== undefined && `HTTP ${status}`, code].filter(Boolean).join(', ');
  return `${lookupErrorCode(`model.${kind}`).meaning.replace(/\.$/, '')} (${facts}).`;
}
