import { createMiddleware } from 'hono/factory';
import type { Scope } from '../contracts/scopes';
import type { AppEnv } from '../env';
import { ApiError } from '../errors';
import { cacheApiKey, cachedApiKey } from '../storage/api-key-cache';
import { findApiKeyByHash } from '../storage/api-keys';
import { countedD1 } from '../storage/round-trips';
import { sha256Hex } from './secret-hash';

function bearer(header: string | undefined): string | undefined {
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header ?? '');
  return match?.[1];
}

export interface KeyOptions {
  /** Also take the key from `x-api-key`, as Anthropic's clients send it (the Anthropic door). */
  xApiKey?: boolean;
}

/**
 * Checks `Authorization: Bearer <key>` (or, where the route allows it, `x-api-key: <key>`) against the
 * hashed keys in D1 and the scope the route needs.
 */
export function requireKey(scope?: Scope, options: KeyOptions = {}) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const key =
      bearer(c.req.header('Authorization')) ??
      (options.xApiKey === true ? c.req.header('x-api-key')?.trim() || undefined : undefined);
    if (!key) {
      const how =
        options.xApiKey === true
          ? '`x-api-key: <key>` or `Authorization: Bearer <key>`'
          : '`Authorization: Bearer <key>`';
      throw new ApiError('auth.missing_key', `Send an API key as ${how}.`, {
        headers: { 'WWW-Authenticate': 'Bearer realm="valve"' },
      });
    }
    const keyHash = sha256Hex(key);
    const now = Date.now();
    let row = cachedApiKey(keyHash, now);
    if (row === undefined) {
      // Only known keys are cached: unknown ones are looked up each time, so a new key works at once.
      row = await findApiKeyByHash(countedD1(c.env.DB, c.get('trips'), 'd1:api-key'), keyHash);
      if (row) cacheApiKey(keyHash, row, now);
    }
    if (!row) {
      throw new ApiError('auth.invalid_key', 'The API key is not valid.', {
        headers: { 'WWW-Authenticate': 'Bearer realm="valve", error="invalid_token"' },
      });
    }
    if (row.revokedAt !== null) {
      throw new ApiError('auth.revoked_key', 'The API key was revoked.', {
        headers: { 'WWW-Authenticate': 'Bearer realm="valve", error="invalid_token"' },
      });
    }
    if (scope && !row.scopes.includes(scope)) {
      throw new ApiError('auth.forbidden', `The API key lacks the scope \`${scope}\`.`, {
        details: { requiredScope: scope },
      });
    }
    c.set('caller', {
      keyId: row.id,
      tenant: row.tenant,
      scopes: row.scopes,
      rateLimitPerMinute: row.rateLimitPerMinute,
    });
    await next();
  });
}
