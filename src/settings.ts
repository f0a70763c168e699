// The Worker's settings: every variable of wrangler.toml's `[vars]`, with the value the code uses when
// it is unset or empty. The code reads a setting's default from here and nowhere else, and
// docs/operating.md's "Settings" table and wrangler.toml are tested against this list
// (test/node/docs/settings-table.test.ts).

/** A positive whole number (a size, a count, milliseconds); anything else reads as the default. */
interface CountSetting {
  kind: 'count';
  default: number;
}

/** Text, trimmed; blank reads as the default, or as unset when there is none. */
interface TextSetting {
  kind: 'text';
  default?: string;
}

export type Setting = CountSetting | TextSetting;

export const settings = {
  VALVE_VERSION: { kind: 'text' },
  VALVE_CATALOG: { kind: 'text' },
  MAX_BODY_BYTES: { kind: 'count', default: 1_048_576 },
  MAX_MEDIA_BODY_BYTES: { kind: 'count', default: 18_874_368 },
  BODY_READ_TIMEOUT_MS: { kind: 'count', default: 10_000 },
  DEFAULT_RATE_LIMIT_PER_MINUTE: { kind: 'count', default: 600 },
  CIRCUIT_COOLDOWN_MS: { kind: 'count', default: 30_000 },
  PROVIDER_CIRCUIT_COOLDOWN_MS: { kind: 'count', default: 120_000 },
  VALVE_ISSUER: { kind: 'text', default: 'https://valve.local' },
  LOG_ORIGIN: { kind: 'text', default: 'valve.local/log/0' },
  LOG_SHARDS: { kind: 'text', default: 'single' },
  LOG_WITNESSES: { kind: 'text' },
  LOG_WITNESS_QUORUM: { kind: 'count', default: 1 },
  LOG_WITNESS_DELAY_MS: { kind: 'count', default: 1000 },
  RECEIPT_KEY_HISTORY: { kind: 'text' },
  APPROVAL_WINDOW_MS: { kind: 'count', default: 86_400_000 },
  CAPABILITY_TTL_MS: { kind: 'count', default: 900_000 },
  DEFAULT_PRIVACY: { kind: 'text', default: 'internal' },
} as const satisfies Record<string, Setting>;

export type SettingName = keyof typeof settings;

type Settings = typeof settings;
type CountName = { [K in SettingName]: Settings[K] extends CountSetting ? K : never }[SettingName];
type DefaultedTextName = {
  [K in SettingName]: Settings[K] extends { kind: 'text'; default: string } ? K : never;
}[SettingName];

/** A count setting from the environment: a positive whole number, else its default. */
export function countSetting<K extends CountName>(env: { [N in K]?: unknown }, name: K): number {
  const raw = env[name];
  const value = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : Number.NaN;
  return Number.isInteger(value) && value > 0 ? value : settings[name].default;
}

/** A text setting that has a default, trimmed; its default when unset or blank. */
export function textSetting<K extends DefaultedTextName>(env: { [N in K]?: unknown }, name: K): string {
  const raw = env[name];
  const value = typeof raw === 'string' ? raw.trim() : '';
  return value === '' ? settings[name].default : value;
}
