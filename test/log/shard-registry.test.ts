import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { verifyCheckpoint } from '../../src/log/checkpoint';
import { logOriginOf } from '../../src/log/log-settings';
import { listedShards, parseShardPolicy, shardOrigin } from '../../src/log/log-shards';
import { ShardRegistry } from '../../src/log/shard-registry';
import { call } from '../helpers/api';

// Shards on: LOG_SHARDS picks the policy, every shard that takes an entry registers with the
// deployment's own log, the trust root lists it whatever the policy is now, and /v1/log/* answers for it.

const base = logOriginOf(env);

describe('LOG_SHARDS', () => {
  it('reads single, tenant-groups:<n> and monthly, and nothing else', () => {
    expect(parseShardPolicy('single')).toEqual({ kind: 'single' });
    expect(parseShardPolicy('monthly')).toEqual({ kind: 'monthly' });
    expect(parseShardPolicy('tenant-groups:4')).toEqual({ kind: 'tenant-groups', groups: 4 });
    expect(parseShardPolicy('tenant-groups:256')).toEqual({ kind: 'tenant-groups', groups: 256 });
    for (const bad of [
      '',
      'tenant-groups',
      'tenant-groups:0',
      'tenant-groups:257',
      'tenant-groups:04',
      'Monthly',
    ]) {
      expect(parseShardPolicy(bad)).toBeNull();
    }
  });

  it('lists the deployment’s own log first, then the policy’s and every registered shard, once each', () => {
    const at = Date.UTC(2026, 11, 3);
    const old = shardOrigin(base, 'g2');
    const foreign = 'elsewhere.example/log/g2';
    expect(listedShards({ kind: 'single' }, base, at, [old, foreign, old])).toEqual([base, old]);
    expect(listedShards({ kind: 'monthly' }, base, at, [old])).toEqual([
      base,
      shardOrigin(base, '2026-12'),
      shardOrigin(base, '2027-01'),
      old,
    ]);
  });
});

describe('a shard of the deployment', () => {
  it('registers with the deployment’s own log before its first entry, and only on its own host', async () => {
    const shard = shardOrigin(base, 'registry-a');
    const registry = env.RECEIPT_LOG.getByName(base);
    expect(await registry.shards()).not.toContain(shard);
    await env.RECEIPT_LOG.getByName(shard).append(new Uint8Array(32).fill(1));
    expect(await registry.shards()).toContain(shard);
    expect(await registry.registerShard('elsewhere.example/log/x')).toBe(false);
    expect(await registry.shards()).not.toContain('elsewhere.example/log/x');
  });

  it('stays in the trust root under the single policy, so a switch back orphans none of its receipts', async () => {
    const shard = shardOrigin(base, 'registry-b');
    await env.RECEIPT_LOG.getByName(shard).append(new Uint8Array(32).fill(2));
    const root = (await (await call('/v1/trust-root')).json()) as {
      logs: { origin: string; verifierKey: string }[];
    };
    expect(root.logs[0]?.origin).toBe(base);
    const listed = root.logs.find((log) => log.origin === shard);
    if (listed === undefined) throw new Error('the shard is not in the trust root');
    // Its key is the one its checkpoints verify under.
    const body = (await (await call(`/v1/log/checkpoint?origin=${encodeURIComponent(shard)}`)).json()) as {
      origin: string;
      treeSize: number;
      checkpoint: string;
    };
    expect(body.origin).toBe(shard);
    expect(body.treeSize).toBe(1);
    expect((await verifyCheckpoint(body.checkpoint, listed)).ok).toBe(true);
    // The deployment's own key does not verify the shard's checkpoint: each origin is its own log.
    expect((await verifyCheckpoint(body.checkpoint, root.logs[0] as (typeof root.logs)[0])).ok).toBe(false);
  });

  it('answers proofs of a listed shard under ?origin=, and the deployment’s own log without it', async () => {
    const shard = shardOrigin(base, 'registry-c');
    const log = env.RECEIPT_LOG.getByName(shard);
    for (let i = 0; i < 3; i++) await log.append(new Uint8Array(32).fill(10 + i));
    const q = `origin=${encodeURIComponent(shard)}`;
    const inclusion = await call(`/v1/log/inclusion?index=2&size=3&${q}`);
    expect(inclusion.status).toBe(200);
    expect(await inclusion.json()).toEqual({ index: 2, treeSize: 3, ...(await log.inclusion(2, 3)) });
    const consistency = await call(`/v1/log/consistency?from=1&to=3&${q}`);
    expect(await consistency.json()).toEqual({ from: 1, to: 3, ...(await log.consistency(1, 3)) });
    const own = (await (await call('/v1/log/checkpoint')).json()) as { origin: string };
    expect(own.origin).toBe(base);
  });

  it('answers 404 for an origin the trust root does not list, and makes no log object for it', async () => {
    const stranger = shardOrigin(base, 'never-written');
    const res = await call(`/v1/log/checkpoint?origin=${encodeURIComponent(stranger)}`);
    expect(res.status).toBe(404);
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('request.not_found');
    expect(body.error.message).not.toContain('never-written');
    expect(await env.RECEIPT_LOG.getByName(stranger).size()).toBe(0);
    expect(await env.RECEIPT_LOG.getByName(base).shards()).not.toContain(stranger);
  });

  it('answers 400 request.invalid for an origin that is not <host>/log/<shard>', async () => {
    for (const bad of ['nope', 'a/b/log/0', `${base}/extra`]) {
      const res = await call(`/v1/log/consistency?from=1&to=1&origin=${encodeURIComponent(bad)}`);
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('request.invalid');
    }
  });
});

describe('the shard registry on its own', () => {
  /** A registry over a fresh object's SQLite, as `origin`, whose calls to the deployment's log are `answers`. */
  function registryIn(sql: SqlStorage, origin: string, answers: (() => Promise<boolean>)[]) {
    const calls: string[] = [];
    const registry = new ShardRegistry(sql, {
      origin: () => origin,
      base: () => base,
      registerWith: (to, self) => {
        calls.push(`${self} -> ${to}`);
        return (answers.shift() ?? (() => Promise.resolve(true)))();
      },
    });
    return { registry, calls };
  }

  it('registers a shard once per life for any number of batches, and again after a refusal or a failure', async () => {
    const shard = shardOrigin(base, 'unit-a');
    await runInDurableObject(env.RECEIPT_LOG.getByName('registry-unit-a'), async (_log, state) => {
      const { registry, calls } = registryIn(state.storage.sql, shard, [
        () => Promise.resolve(false),
        () => Promise.reject(new Error('unreachable')),
      ]);
      await expect(registry.registerOnce()).rejects.toThrow(`${shard} could not register with ${base}`);
      await expect(registry.registerOnce()).rejects.toThrow('unreachable');
      await Promise.all([registry.registerOnce(), registry.registerOnce(), registry.registerOnce()]);
      await registry.registerOnce();
      expect(calls).toEqual(Array.from({ length: 3 }, () => `${shard} -> ${base}`));
    });
  });

  it('makes no call for the deployment’s own log', async () => {
    await runInDurableObject(env.RECEIPT_LOG.getByName('registry-unit-b'), async (_log, state) => {
      const { registry, calls } = registryIn(state.storage.sql, base, []);
      await registry.registerOnce();
      expect(calls).toEqual([]);
    });
  });

  it('records shards of its own host but not itself, sorted, and refuses another host', async () => {
    await runInDurableObject(env.RECEIPT_LOG.getByName('registry-unit-c'), async (_log, state) => {
      state.storage.sql.exec('DELETE FROM log_shards');
      const { registry } = registryIn(state.storage.sql, base, []);
      expect(registry.register(shardOrigin(base, 'z'))).toBe(true);
      expect(registry.register(shardOrigin(base, 'a'))).toBe(true);
      expect(registry.register(shardOrigin(base, 'a'))).toBe(true);
      expect(registry.register(base)).toBe(true);
      expect(registry.register('elsewhere.example/log/a')).toBe(false);
      expect(registry.list()).toEqual([shardOrigin(base, 'a'), shardOrigin(base, 'z')]);
    });
  });
});
