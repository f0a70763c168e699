import { Hono } from 'hono';
import { recordAudit } from '../audit/record-audit';
import { defaultPageRows, keysQuerySchema } from '../contracts/admin-lists';
import { pageOf } from '../contracts/list-cursor';
import { createKeySchema } from '../contracts/operator-bodies';
import { randomBase64url, randomHex } from '../encoding/random-token';
import type { AppEnv } from '../env';
import { ApiError } from '../errors';
import { requireJson, validJson } from '../middleware/json-body';
import { requireAdmin } from '../middleware/require-admin';
import { sha256Hex } from '../middleware/secret-hash';
import { validQuery } from '../middleware/valid-query';
import { forgetApiKey } from '../storage/api-key-cache';
import { insertApiKey, listApiKeys, revokeApiKey } from '../storage/api-keys';

export const adminKeyRoutes = new Hono<AppEnv>()
  .use('*', requireAdmin)
  .get('/keys', validQuery(keysQuerySchema), async (c) => {
    const { tenant, limit = defaultPageRows, cursor } = c.req.valid('query');
    const rows = await listApiKeys(c.env.DB, { tenant, after: cursor, limit: limit + 1 });
    const { items, next } = pageOf(rows, limit, (row) => [row.createdAt, row.id]);
    // Listed field by field: a column added to the row later is not listed unseen.
    const keys = items.map((row) => ({
      id: row.id,
      tenant: row.tenant,
      scopes: row.scopes,
      rateLimitPerMinute: row.rateLimitPerMinute,
      createdAt: row.createdAt,
      revokedAt: row.revokedAt,
      lastUsedAt: row.lastUsedAt,
    }));
    return c.json({ keys, next });
  })
  .post('/keys', requireJson, validJson(createKeySchema), async (c) => {
    const body = c.req.valid('json');
    const id = `key_${randomHex(8)}`;
    const key = `vk_${randomBase64url(32)}`;
    const keyScopes = [...new Set(body.scopes)];
    await insertApiKey(c.env.DB, {
      id,
      tenant: body.tenant,
      keyHash: sha256Hex(key),
      scopes: keyScopes,
      createdAt: Date.now(),
      rateLimitPerMinute: body.rateLimitPerMinute ?? null,
    });
    await recordAudit(c.env, {
      action: 'key.created',
      actor: 'admin',
      subject: id,
      outcome: 'ok',
      details: {
        tenant: body.tenant,
        scopes: keyScopes,
        rateLimitPerMinute: body.rateLimitPerMinute ?? null,
      },
    });
    return c.json(
      {
        id,
        key,
        tenant: body.tenant,
        scopes: keyScopes,
        rateLimitPerMinute: body.rateLimitPerMinute ?? null,
      },
      201,
    );
  })
  .delete('/keys/:id', async (c) => {
    const row = await revokeApiKey(c.env.DB, c.req.param('id'), Date.now());
    forgetApiKey(c.req.param('id'));
    if (!row) throw new ApiError('request.not_found', 'No API key has this id.');
    await recordAudit(c.env, {
      action: 'key.revoked',
      actor: 'admin',
      subject: row.id,
      outcome: 'ok',
      details: { tenant: row.tenant },
    });
    return c.json({ id: row.id, tenant: row.tenant, revoked: true as const, revokedAt: row.revokedAt });
  });
