import { Hono } from 'hono';
import type { AppEnv } from '../env';
import { ApiError } from '../errors';
import { logOriginOf } from '../log/log-settings';
import { parseLogOrigin } from '../log/log-shards';
import { parseTilePath } from '../log/tile-path';
import { requestedOriginOf } from './log-origins';

// Every listed shard as a C2SP tlog-tiles log (https://c2sp.org/tlog-tiles) under the prefix
// `/log/<shard>`, the origin's own path: the checkpoint, hash tiles and entry bundles, so any
// transparency client computes proofs from tiles. Tiles never change: served for a year, immutable;
// the checkpoint for a second or two.

const IMMUTABLE = 'public, max-age=31536000, immutable';

async function shardLog(env: Env, shard: string) {
  const host = parseLogOrigin(logOriginOf(env))?.host;
  const origin = `${host}/log/${shard}`;
  if (parseLogOrigin(origin) === null) throw notFound();
  return env.RECEIPT_LOG.getByName(await requestedOriginOf(env, origin));
}

function notFound(): ApiError {
  return new ApiError('request.not_found', 'This log serves no such resource (yet).', {
    headers: { 'Cache-Control': 'no-store' },
  });
}

export const logTileRoutes = new Hono<AppEnv>()
  .get('/log/:shard/checkpoint', async (c) => {
    const note = await (await shardLog(c.env, c.req.param('shard'))).publishedCheckpoint();
    return c.body(note, 200, {
      'Content-Type': 'text/plain; charset=utf-8',
      'Cache-Control': 'public, max-age=2',
    });
  })
  .get('/log/:shard/tile/:path{.+}', async (c) => {
    const tile = parseTilePath(`tile/${c.req.param('path')}`);
    if (tile === null) {
      throw new ApiError(
        'request.invalid',
        'Not a C2SP tile path: tile/<L>/<N>[.p/<W>] or tile/entries/<N>[.p/<W>].',
      );
    }
    const log = await shardLog(c.env, c.req.param('shard'));
    const bytes =
      tile.level === 'entries'
        ? await log.entryBundle(tile.index, tile.width)
        : await log.tile(tile.level, tile.index, tile.width);
    if (bytes === null) throw notFound();
    return c.body(new Uint8Array(bytes), 200, {
      'Content-Type': 'application/octet-stream',
      'Cache-Control': IMMUTABLE,
    });
  });
