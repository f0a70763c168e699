// A catalog names the secret each provider's key comes from, and the key is sent to that provider's
// `baseUrl`. So the name must never reach one of Valve's own secrets or bindings: provider keys live
// under names of their own, the three well-known ones or any `PROVIDER_…` name.

/** Every secret, variable and binding of Valve's own (wrangler.toml and its secrets). */
export const valveOwnNames: ReadonlySet<string> = new Set([
  'ADMIN_TOKEN',
  'RECEIPT_SIGNING_KEY',
  'LOG_SIGNING_KEY',
  'VALVE_VERSION',
  'VALVE_CATALOG',
  'VALVE_ISSUER',
  'MAX_BODY_BYTES',
  'BODY_READ_TIMEOUT_MS',
  'DEFAULT_RATE_LIMIT_PER_MINUTE',
  'CIRCUIT_COOLDOWN_MS',
  'PROVIDER_CIRCUIT_COOLDOWN_MS',
  'LOG_ORIGIN',
  'RECEIPT_KEY_HISTORY',
  'DB',
  'RECEIPT_LOG',
  'MODEL_HEALTH',
  'RATE_LIMITER',
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
