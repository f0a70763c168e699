import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { parseCheckpoint } from '../../src/log/checkpoint';
import { logOriginOf } from '../../src/log/log-settings';
import { parseLogOrigin, publishedShards, shardFor, shardOrigin } from '../../src/log/log-shards';
import { parseTlogProof } from '../../src/log/tlog-proof';

// Several log shards, each its own Durable Object and signed checkpoint, named `<host>/log/<shard>`.

const base = 'valve.example/log/0';

describe('log origins', () => {
  it('parse into host and shard, and reject anything else', () => {
    expect(parseLogOrigin('valve.example/log/0')).toEqual({ host: 'valve.example', shard: '0' });
    expect(parseLogOrigin('valve.example:8443/log/2026-12')).toEqual({
      host: 'valve.example:8443',
      shard: '2026-12',
    });
    for (const bad of [
      '',
      'valve.example',
      'valve.example/log/',
      'a/b/log/0',
      'valve.example/log/x y',
      'valve.example/logs/0',
    ]) {
      expect(parseLogOrigin(bad)).toBeNull();
    }
    expect(shardOrigin(base, 'g3')).toBe('valve.example/log/g3');
    expect(() => shardOrigin(base, 'no/slash')).toThrow(RangeError);
  });

  it('pick one shard per tenant group, stable and spread, and one per UTC month', () => {
    const groups = { kind: 'tenant-groups', groups: 4 } as const;
    const at = Date.UTC(2026, 11, 31, 23, 59);
    expect(shardFor({ kind: 'single' }, base, { tenant: 'acme', atMs: at })).toBe(base);
    expect(shardFor(groups, base, { tenant: 'acme', atMs: at })).toBe(
      shardFor(groups, base, { tenant: 'acme', atMs: 0 }),
    );
    const used = new Set(
      Array.from({ length: 64 }, (_, i) => shardFor(groups, base, { tenant: `t${i}`, atMs: at })),
    );
    expect([...used].sort()).toEqual(publishedShards(groups, base, at).sort());
    expect(shardFor({ kind: 'monthly' }, base, { tenant: 'acme', atMs: at })).toBe(
      'valve.example/log/2026-12',
    );
    expect(shardFor({ kind: 'monthly' }, base, { tenant: 'acme', atMs: at + 60_000 })).toBe(
      'valve.example/log/2027-01',
    );
    // A trust root pinned this month already holds next month's shard.
    expect(publishedShards({ kind: 'monthly' }, base, at)).toEqual([
      'valve.example/log/2026-12',
      'valve.example/log/2027-01',
    ]);
  });
});

describe('a ReceiptLog named by a shard origin', () => {
  it('signs its checkpoints with its own origin, so its receipts name their shard', async () => {
    const shard = shardOrigin(logOriginOf(env), 'g1');
    const log = env.RECEIPT_LOG.getByName(shard);
    const { proof } = await log.append(new Uint8Array(32).fill(9));
    const parsed = parseTlogProof(proof);
    if (!parsed.ok) throw new Error(parsed.reason);
    const checkpoint = parseCheckpoint(`${parsed.value.checkpoint.split('\n\n')[0]}\n`);
    expect(checkpoint.ok && checkpoint.value.origin).toBe(shard);
    expect((await log.checkpoint()).startsWith(`${shard}\n`)).toBe(true);
  });

  it('keeps the deployment origin for an object named otherwise (tests, benches)', async () => {
    const note = await env.RECEIPT_LOG.getByName('not-an-origin').checkpoint();
    expect(note.startsWith(`${logOriginOf(env)}\n`)).toBe(true);
  });
});
