import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { verifyCheckpoint } from '../../src/log/checkpoint';
import { logOriginOf } from '../../src/log/log-settings';
import { entryHash } from '../../src/log/merkle';
import { formatTilePath, parseTilePath } from '../../src/log/tile-path';
import { call } from '../helpers/api';
import { sizeAndRoot, TileReader, tileIndexPath } from './tile-reader';

// Every shard as a C2SP tlog-tiles log: the spec's own path examples, then a shard read by an
// independent reader (tile-reader.ts: the spec's path rules and RFC 6962 hashing only) from the
// trust root alone, and a tampered tile refused.

const host = logOriginOf(env).split('/')[0] as string;

interface Listed {
  origin: string;
  verifierKey: string;
  tiles?: string;
}

/** Appends `count` entries one after another, so entry i is at index i. */
async function fill(shard: string, count: number): Promise<Uint8Array[]> {
  const log = env.RECEIPT_LOG.getByName(`${host}/log/${shard}`);
  const entries: Uint8Array[] = [];
  for (let i = 0; i < count; i++) {
    const entry = entryHash(new TextEncoder().encode(`${shard} ${i}`));
    expect((await log.append(entry)).index).toBe(i);
    entries.push(entry);
  }
  return entries;
}

async function listed(origin: string): Promise<Listed> {
  const root = (await (await call('/v1/trust-root')).json()) as { logs: Listed[] };
  const log = root.logs.find((l) => l.origin === origin);
  if (log === undefined) throw new Error(`${origin} is not in the trust root`);
  return log;
}

const pathOf = (url: string) => new URL(url).pathname;
const get = async (url: string) => {
  const res = await call(pathOf(url));
  return res.status === 200 ? new Uint8Array(await res.arrayBuffer()) : null;
};

describe('C2SP tile paths', () => {
  it('encode <N> in 3-digit elements, all but the last with x, as the spec’s example 1234067', () => {
    expect(formatTilePath({ level: 0, index: 1234067, width: 256 })).toBe('tile/0/x001/x234/067');
    expect(parseTilePath('tile/0/x001/x234/067')).toEqual({ level: 0, index: 1234067, width: 256 });
    expect(parseTilePath('tile/entries/000.p/17')).toEqual({ level: 'entries', index: 0, width: 17 });
    expect(parseTilePath('tile/2/x001/000.p/1')).toEqual({ level: 2, index: 1000, width: 1 });
    expect(tileIndexPath(1234067)).toBe('x001/x234/067');
    for (const index of [0, 7, 999, 1000, 256_000, 1_000_000]) {
      for (const width of [1, 255, 256]) {
        const tile = { level: 3, index, width };
        expect(parseTilePath(formatTilePath(tile))).toEqual(tile);
      }
    }
  });

  it('refuse every other spelling: leading zeros, a missing x, width 0 or 256, level 64', () => {
    for (const bad of [
      'tile/0/1234',
      'tile/0/01',
      'tile/0/x000/001',
      'tile/0/001/234',
      'tile/0/x1/234',
      'tile/00/000',
      'tile/64/000',
      'tile/0/000.p/0',
      'tile/0/000.p/256',
      'tile/0/000.p/08',
      'tile/0/000.p',
      'tile/data/000',
      'tile/0',
    ]) {
      expect(parseTilePath(bad), bad).toBeNull();
    }
  });
});

describe('a shard served as tlog-tiles', () => {
  it('is read from the trust root alone by an independent reader: root, every entry, every leaf', async () => {
    const origin = `${host}/log/tiles-a`;
    const entries = await fill('tiles-a', 600);
    const log = await listed(origin);
    expect(log.tiles).toMatch(/\/log\/tiles-a$/);
    const prefix = log.tiles as string;
    const checkpoint = await call(`${pathOf(prefix)}/checkpoint`);
    expect(checkpoint.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    const note = await checkpoint.text();
    expect((await verifyCheckpoint(note, log)).ok).toBe(true);
    const { size, root } = sizeAndRoot(note);
    expect(size).toBe(600);
    const reader = new TileReader(prefix, size, get);
    await reader.checkRoot(root);
    for (const index of [0, 255, 256, 511, 512, 599]) {
      expect(Array.from(await reader.entry(index)), `entry ${index}`).toEqual(
        Array.from(entries[index] as Uint8Array),
      );
    }
  });

  it('serves the spec’s partial widths: floor(s / 256^l) mod 256, and full tiles as immutable', async () => {
    const prefix = pathOf((await listed(`${host}/log/tiles-a`)).tiles as string);
    const full = await call(`${prefix}/tile/0/001`);
    expect(full.status).toBe(200);
    expect((await full.arrayBuffer()).byteLength).toBe(8192);
    expect(full.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(full.headers.get('content-type')).toBe('application/octet-stream');
    expect((await (await call(`${prefix}/tile/0/002.p/88`)).arrayBuffer()).byteLength).toBe(88 * 32);
    expect((await (await call(`${prefix}/tile/1/000.p/2`)).arrayBuffer()).byteLength).toBe(64);
    expect((await (await call(`${prefix}/tile/entries/002.p/88`)).arrayBuffer()).byteLength).toBe(88 * 34);
    // A tile the tree does not hold yet is 404 and not cached; a bad path is 400.
    for (const missing of [
      'tile/0/002',
      'tile/0/002.p/89',
      'tile/1/000',
      'tile/2/000.p/1',
      'tile/entries/003.p/1',
    ]) {
      const res = await call(`${prefix}/${missing}`);
      expect(res.status, missing).toBe(404);
      expect(res.headers.get('cache-control')).toBe('no-store');
    }
    const bad = await call(`${prefix}/tile/0/2`);
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { code: string } }).error.code).toBe('request.invalid');
  });

  it('lets the reader refuse a tile that does not match the checkpoint', async () => {
    const prefix = (await listed(`${host}/log/tiles-a`)).tiles as string;
    const { size, root } = sizeAndRoot(await (await call(`${pathOf(prefix)}/checkpoint`)).text());
    const tamper = (suffix: string) => async (url: string) => {
      const body = await get(url);
      if (body !== null && url.endsWith(suffix)) body[40] = (body[40] as number) ^ 1;
      return body;
    };
    // A tile the root is computed from.
    await expect(new TileReader(prefix, size, tamper('/tile/1/000.p/2')).checkRoot(root)).rejects.toThrow(
      /do not lead/,
    );
    // A full leaf tile: the root does not read it, but an entry under it is refused.
    const reader = new TileReader(prefix, size, tamper('/tile/0/001'));
    await reader.checkRoot(root);
    await expect(reader.entry(300)).rejects.toThrow(/does not hash to its hash in the tile above/);
    await expect(reader.entry(10)).resolves.toHaveLength(32);
    // And a tile of another size than the checkpoint's is refused for its width.
    const short = async (url: string) =>
      url.endsWith('.p/88') ? ((await get(url)) as Uint8Array).slice(32) : get(url);
    await expect(new TileReader(prefix, size, short).checkRoot(root)).rejects.toThrow(/not 2816/);
  });

  it('answers 404 for the tiles of a shard the trust root does not list', async () => {
    const res = await call('/log/never-listed/tile/0/000.p/1');
    expect(res.status).toBe(404);
    expect((await call('/log/never-listed/checkpoint')).status).toBe(404);
  });
});
