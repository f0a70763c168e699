import { jwksSchema, receiptKeyHistorySchema, type TrustRoot } from '../contracts/trust-root';
import { formatVerifierKey } from '../log/signed-note';
import { textSetting } from '../settings';
import { type Ed25519SigningKey, importEd25519SigningKey, jwkThumbprint } from '../signing/keys';

// The deployment's receipt key and trust root, from its secrets and vars; imported once per isolate.

export interface ServiceKeysEnv {
  RECEIPT_SIGNING_KEY: string;
  LOG_SIGNING_KEY: string;
  VALVE_ISSUER?: string;
  LOG_ORIGIN?: string;
  RECEIPT_KEY_HISTORY?: string;
}

export interface ServiceKeys {
  issuer: string;
  receiptKey: Ed25519SigningKey;
  /** The log's Ed25519 public key: every shard signs with it, under its own origin as key name. */
  logPublicKey: Uint8Array;
  trustRoot: TrustRoot;
}

let cached: { config: string; keys: Promise<ServiceKeys> } | undefined;

export function issuerOf(env: { VALVE_ISSUER?: string }): string {
  return textSetting(env, 'VALVE_ISSUER');
}

export function serviceKeysOf(env: ServiceKeysEnv, logOrigin: string): Promise<ServiceKeys> {
  const config = JSON.stringify([
    env.RECEIPT_SIGNING_KEY,
    env.LOG_SIGNING_KEY,
    env.VALVE_ISSUER,
    logOrigin,
    env.RECEIPT_KEY_HISTORY,
  ]);
  if (cached?.config !== config) {
    const keys = loadServiceKeys(env, logOrigin);
    cached = { config, keys };
    keys.catch(() => {
      if (cached?.keys === keys) cached = undefined;
    });
  }
  return cached.keys;
}

async function loadServiceKeys(env: ServiceKeysEnv, logOrigin: string): Promise<ServiceKeys> {
  const receiptKey = await importEd25519SigningKey(env.RECEIPT_SIGNING_KEY);
  const logKey = await importEd25519SigningKey(env.LOG_SIGNING_KEY);
  const history = receiptKeyHistorySchema.parse(
    env.RECEIPT_KEY_HISTORY?.trim() ? JSON.parse(env.RECEIPT_KEY_HISTORY) : [],
  );
  const previous = await Promise.all(
    history.map(async ({ jwk, validFrom, validUntil }) => {
      const publicJwk = { kty: jwk.kty, crv: jwk.crv, x: jwk.x };
      return { kid: await jwkThumbprint(publicJwk), jwk: publicJwk, validFrom, validUntil };
    }),
  );
  // The current key is valid from the end of the last listed window (from the epoch when none).
  const currentFrom = Math.max(0, ...history.map((k) => k.validUntil));
  const issuer = issuerOf(env);
  return {
    issuer,
    receiptKey,
    logPublicKey: logKey.publicKey,
    trustRoot: {
      issuer,
      receiptKeys: [
        ...previous,
        { kid: receiptKey.kid, jwk: receiptKey.publicJwk, validFrom: currentFrom, validUntil: null },
      ],
      logs: [{ origin: logOrigin, verifierKey: formatVerifierKey(logOrigin, logKey.publicKey) }],
    },
  };
}

/** Where a shard's tiles are served: its origin's path (`/log/<shard>`) on the deployment's issuer URL. */
export function tilesPrefixOf(issuer: string, origin: string): string | undefined {
  if (!URL.canParse(issuer) || !/^https?:$/.test(new URL(issuer).protocol)) return undefined;
  return new URL(origin.slice(origin.indexOf('/')), issuer).href;
}

/** The trust root listing `origins` (the deployment's shards), each with its verifier key. */
export function trustRootListing(keys: ServiceKeys, origins: readonly string[]): TrustRoot {
  return {
    ...keys.trustRoot,
    logs: origins.map((origin) => ({
      origin,
      verifierKey: formatVerifierKey(origin, keys.logPublicKey),
      ...(tilesPrefixOf(keys.issuer, origin) !== undefined && { tiles: tilesPrefixOf(keys.issuer, origin) }),
    })),
  };
}

/** Every receipt key ever used, as a JWKS. */
export function jwksOf(trustRoot: TrustRoot) {
  const seen = new Set<string>();
  const keys = trustRoot.receiptKeys
    .filter((k) => !seen.has(k.kid) && seen.add(k.kid))
    .map((k) => ({ ...k.jwk, kid: k.kid, use: 'sig' as const, alg: 'Ed25519' as const }));
  return jwksSchema.parse({ keys });
}
