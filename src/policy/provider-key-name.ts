// A catalog names the secret each provider's key comes from, and the key is sent to that provider's
// `baseUrl`. So the name must never reach one of Valve's own secrets or bindings: provider keys live
// under names of their own, the three well-known ones or any `PROVIDER_…` name.

import { settings } from '../settings';

/**
 * Every secret, variable and binding of Valve's own (wrangler.toml and its secrets). The variables come
 * from the settings list, so a new one (say `PROVIDER_…`) can never be named as a key.
 */
export const valveOwnNames: ReadonlySet<string> = new Set([
  'ADMIN_TOKEN',
  'RECEIPT_SIGNING_KEY',
  'LOG_SIGNING_KEY',
  ...Object.keys(settings),
  'DB',
  'RECEIPT_LOG',
  'MODEL_HEALTH',
  'RATE_LIMITER',
  'TENANT_BUDGET',
  'AUDIT_TRAIL',
  'AI',
]);

/** The names a provider key may come from. */
export const providerKeyNamePattern = /^(?:(?:OPENAI|ANTHROPIC|GEMINI)_API_KEY|PROVIDER_[A-Z0-9_]+)$/;

export const providerKeyNameRule =
  'a provider key must come from OPENAI_API_KEY, ANTHROPIC_API_KEY, GEMINI_API_KEY or a PROVIDER_… secret';

/** Why `name` cannot hold a provider key, or undefined when it can. */
export function providerKeyNameProblem(name: string): string | undefined {
  if (valveOwnNames.has(name))
    return `${name} is one of Valve's own secrets or settings, never a provider key`;
  if (!providerKeyNamePattern.test(name)) return `${name}: ${providerKeyNameRule}`;
  return undefined;
}
