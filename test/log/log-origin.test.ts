import { env, runInDurableObject } from 'cloudflare:test';
import { afterEach, describe, expect, it } from 'vitest';
import { parseCheckpoint, signCheckpoint } from '../../src/log/checkpoint';
import { logOriginOf } from '../../src/log/log-settings';
import { parseShardPolicy, shardFor, shardOrigin } from '../../src/log/log-shards';
import { createNoteSigner } from '../../src/log/signed-note';
import { parseTlogProof } from '../../src/log/tlog-proof';
import {
  entry,
  namelessStub,
  originOf,
  recordingWitness,
  restart,
  storedCheckpoints,
  wakeByAlarm,
} from './log-wake';
import { refusalOf } from './refusal-of';

// A log object signs only as itself: its origin is kept in its SQLite from its first named use, and an
// object woken with no name (by its witnessing alarm) takes it from there, never from LOG_ORIGIN.

let witness: Awaited<ReturnType<typeof recordingWitness>> | undefined;
afterEach(() => {
  witness?.restore();
  witness = undefined;
});

const base = logOriginOf(env);
const at = Date.UTC(2031, 6, 14);
const policy = (text: string) => {
  const parsed = parseShardPolicy(text);
  if (parsed === null) throw new Error(text);
  return parsed;
};
const shards = [
  ['the main log (single)', shardFor(policy('single'), base, { tenant: 'acme', atMs: at })],
  [
    'a tenant group (tenant-groups:4)',
    shardFor(policy('tenant-groups:4'), base, { tenant: 'acme', atMs: at }),
  ],
  ['a month (monthly)', shardFor(policy('monthly'), base, { tenant: 'acme', atMs: at })],
] as const;

describe('a log object woken by its witnessing alarm after a restart', () => {
  it.each(shards)(
    '%s signs, serves and pushes every checkpoint under its own origin',
    async (_kind, origin) => {
      witness = await recordingWitness();
      const proofs: string[] = [];
      const named = env.RECEIPT_LOG.getByName(origin);
      for (const answer of await Promise.all([0, 1, 2].map((n) => named.append(entry(n))))) {
        proofs.push(answer.proof);
      }
      await restart(named);
      expect(await wakeByAlarm(origin)).toBe(true);
      // Named calls now reach the instance the alarm made, which has no name.
      const again = env.RECEIPT_LOG.getByName(origin);
      proofs.push((await again.append(entry(3))).proof);
      const served = [await again.checkpoint(), await again.publishedCheckpoint()];
      expect(await wakeByAlarm(origin)).toBe(true);

      const signed = proofs.map((proof) => {
        const parsed = parseTlogProof(proof);
        if (!parsed.ok) throw new Error(parsed.reason);
        return parsed.value.checkpoint;
      });
      const stored = await storedCheckpoints(origin);
      expect(stored.at(-1)?.split('\n')[1]).toBe('4');
      expect(witness.pushed.length).toBeGreaterThanOrEqual(2);
      expect(new Set([...signed, ...served, ...witness.pushed, ...stored].map(originOf))).toEqual(
        new Set([origin]),
      );
      expect(originOf(witness.pushed.at(-1) as string)).toBe(origin);
    },
  );
});

/** The origin the object's SQLite keeps, or undefined. */
function storedOrigin(origin: string): Promise<string | undefined> {
  return runInDurableObject(
    namelessStub(origin),
    (_instance, state) =>
      state.storage.sql
        .exec<{ origin: string }>('SELECT origin FROM log_meta')
        .toArray()
        .map((row) => row.origin)[0],
  );
}

/** Makes the object one begun before origins were stored: its tree and checkpoints, no origin row. */
async function forgetOrigin(origin: string): Promise<void> {
  await runInDurableObject(namelessStub(origin), (_instance, state) => {
    state.storage.sql.exec('DROP TABLE IF EXISTS log_meta');
  });
}

describe('the origin a log object keeps', () => {
  it('is stored on its first named use', async () => {
    const origin = shardOrigin(base, 'first-use');
    await env.RECEIPT_LOG.getByName(origin).append(entry(0));
    expect(await storedOrigin(origin)).toBe(origin);
  });

  it('of a log begun before origins were stored is learned from its first checkpoint, even on a wake with no name', async () => {
    witness = await recordingWitness();
    const origin = shardOrigin(base, 'legacy');
    const named = env.RECEIPT_LOG.getByName(origin);
    await named.append(entry(0));
    await named.append(entry(1));
    await forgetOrigin(origin);
    await restart(named);
    expect(await wakeByAlarm(origin)).toBe(true);
    expect(witness.pushed.map(originOf)).toEqual([origin]);
    expect(await storedOrigin(origin)).toBe(origin);
    await env.RECEIPT_LOG.getByName(origin).append(entry(2));
    expect((await storedCheckpoints(origin)).map(originOf)).toEqual([origin, origin, origin]);
  });

  it('refuses to append, sign or push when its name disagrees with the origin it stored', async () => {
    witness = await recordingWitness();
    const origin = shardOrigin(base, 'renamed');
    const named = env.RECEIPT_LOG.getByName(origin);
    await named.append(entry(0));
    await runInDurableObject(named, (_instance, state) => {
      state.storage.sql.exec('UPDATE log_meta SET origin = ?', base);
    });
    await restart(named);
    const again = env.RECEIPT_LOG.getByName(origin);
    const refusal = `log object refused: this log object is named ${origin} (origin ${origin}) but holds the log of ${base}`;
    expect(await refusalOf(again, (log) => log.append(entry(1)))).toContain(refusal);
    expect(await refusalOf(again, (log) => log.checkpoint())).toContain(refusal);
    const pushes = witness.pushed.length;
    await wakeByAlarm(origin);
    expect(witness.pushed).toHaveLength(pushes);
    expect((await storedCheckpoints(origin)).map(originOf)).toEqual([origin]);
  });

  it('refuses a log begun before origins were stored whose latest checkpoint is signed as another log', async () => {
    witness = await recordingWitness();
    const origin = shardOrigin(base, 'forked');
    const named = env.RECEIPT_LOG.getByName(origin);
    await named.append(entry(0));
    await named.append(entry(1));
    // The fork this guards against: a shard's tree signed as the deployment's main log.
    const forked = await runInDurableObject(named, async (_instance, state) => {
      const row = state.storage.sql
        .exec<{ size: number; note: string }>(
          'SELECT size, note FROM log_checkpoints ORDER BY size DESC LIMIT 1',
        )
        .one();
      const parsed = parseCheckpoint(row.note.slice(0, row.note.indexOf('\n\n') + 1));
      if (!parsed.ok) throw new Error(parsed.reason);
      const note = await signCheckpoint(
        { ...parsed.value, origin: base },
        await createNoteSigner(base, env.LOG_SIGNING_KEY),
      );
      state.storage.sql.exec('UPDATE log_checkpoints SET note = ? WHERE size = ?', note, row.size);
      return row.size;
    });
    await forgetOrigin(origin);
    await restart(named);
    await wakeByAlarm(origin);
    expect(witness.pushed).toEqual([]);
    const again = env.RECEIPT_LOG.getByName(origin);
    const refusal = `log object refused: this log object (origin ${origin}) holds a checkpoint signed as ${base}`;
    expect(await refusalOf(again, (log) => log.append(entry(2)))).toContain(refusal);
    expect(await refusalOf(again, (log) => log.publishedCheckpoint())).toContain(refusal);
    expect(await again.size()).toBe(forked);
    expect(await storedOrigin(origin)).toBeUndefined();
  });

  it('is never guessed: an object with no name and nothing stored signs nothing', async () => {
    const stub = namelessStub(shardOrigin(base, 'never-named'));
    expect(await refusalOf(stub, (log) => log.checkpoint())).toContain(
      'log object refused: this log object was woken without a name and has no stored origin',
    );
    expect(await refusalOf(stub, (log) => log.append(entry(0)))).toContain('woken without a name');
    expect(await stub.size()).toBe(0);
  });
});
