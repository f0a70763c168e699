import { env, runInDurableObject } from 'cloudflare:test';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createCosigner, formatCosignerKey } from '../../src/log/cosignature';
import { createNoteSigner, formatVerifierKey } from '../../src/log/signed-note';
import { WITNESS_RETRY_MS, type WitnessEnv, WitnessRounds } from '../../src/log/witness-rounds';
import { Witness } from '../../src/witness/witness';
import { MemoryStore, seed, TestLog } from '../witness/test-log';

// When a shard pushes to its witnesses, on its own: one alarm due at a time, LOG_WITNESS_DELAY_MS after
// a batch, a failed round retried WITNESS_RETRY_MS later, and the quorum read from LOG_WITNESS_QUORUM.

const ORIGIN = 'valve.test/log/rounds';
const NOW = 1_700_000_000_000;
let objects = 0;

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

/** Rounds over a fresh object's SQLite, a log of `size` entries, and one in-process witness. */
async function setup(size: number, settings: Omit<WitnessEnv, 'LOG_WITNESSES'> = {}) {
  const signer = await createNoteSigner(ORIGIN, seed(1));
  const cosigner = await createCosigner('w.test', seed(30));
  const witness = new Witness(cosigner, [formatVerifierKey(ORIGIN, signer.publicKey)], new MemoryStore());
  const log = new TestLog(signer, 'honest');
  log.grow(size);
  const latest = { size, note: await log.checkpoint() };
  const alarms: number[] = [];
  const up = { yes: true };
  const send: typeof fetch = async (_input, init) => {
    if (!up.yes) return new Response('busy', { status: 503 });
    const answer = await witness.addCheckpoint(String(init?.body));
    return new Response(answer.body, {
      status: answer.status,
      headers: { 'content-type': answer.contentType },
    });
  };
  const witnessEnv: WitnessEnv = {
    LOG_WITNESSES: `${formatCosignerKey('w.test', cosigner.publicKey)} https://w.test`,
    ...settings,
  };
  const run = <T>(use: (rounds: WitnessRounds) => Promise<T>) =>
    runInDurableObject(env.RECEIPT_LOG.getByName(`witness-rounds-${objects++}`), (_log, state) => {
      const storage = {
        sql: state.storage.sql,
        setAlarm: async (at: number) => {
          alarms.push(at);
        },
      };
      return use(new WitnessRounds(storage, witnessEnv, { latest, tree: log.tree }, () => ORIGIN, send));
    });
  return { run, alarms, up, witnessEnv };
}

describe('WitnessRounds', () => {
  it('sets one alarm LOG_WITNESS_DELAY_MS after a batch, none while one is due, and another once it ran', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(NOW);
    const t = await setup(3, { LOG_WITNESS_DELAY_MS: '250' });
    await t.run(async (rounds) => {
      rounds.schedule();
      rounds.schedule();
      expect(t.alarms).toEqual([NOW + 250]);
      await rounds.alarm();
      rounds.schedule();
      expect(t.alarms).toEqual([NOW + 250, NOW + 250]);
    });
  });

  it('retries a round a witness failed WITNESS_RETRY_MS later, and says which', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(NOW);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const t = await setup(3);
    t.up.yes = false;
    await t.run(async (rounds) => {
      await rounds.alarm();
      expect(t.alarms).toEqual([NOW + WITNESS_RETRY_MS]);
      expect(warn).toHaveBeenCalledWith(`log ${ORIGIN}: witnessing size 3: w.test answered 503: busy`);
      rounds.schedule();
      expect(t.alarms).toHaveLength(1);
      expect(rounds.latestCosigned()).toBeNull();
    });
  });

  it('answers the latest checkpoint cosigned by LOG_WITNESS_QUORUM witnesses, and none short of it', async () => {
    const t = await setup(4);
    await t.run(async (rounds) => {
      expect(rounds.cosignedAt(4)).toBeUndefined();
      const round = await rounds.round();
      expect(round?.outcomes).toEqual([{ name: 'w.test', ok: true, detail: 'cosigned size 4' }]);
      expect(rounds.latestCosigned()?.size).toBe(4);
      expect(rounds.cosignedAt(4)).toBe(rounds.latestCosigned()?.note);
      t.witnessEnv.LOG_WITNESS_QUORUM = '2';
      expect(rounds.latestCosigned()).toBeNull();
    });
  });

  it('does nothing without witnesses, or with a list it cannot use (and says so once)', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const t = await setup(2);
    t.witnessEnv.LOG_WITNESSES = 'a b c';
    await t.run(async (rounds) => {
      rounds.schedule();
      expect(await rounds.round()).toBeNull();
      expect(rounds.latestCosigned()).toBeNull();
    });
    expect(t.alarms).toEqual([]);
    expect(error).toHaveBeenCalledTimes(1);
    expect(error).toHaveBeenCalledWith(
      `log ${ORIGIN}: no witnessing: LOG_WITNESSES entry "a b c" is not "<verifier key> <URL>"`,
    );
    t.witnessEnv.LOG_WITNESSES = '';
    await t.run(async (rounds) => {
      rounds.schedule();
      expect(await rounds.round()).toBeNull();
    });
    expect(t.alarms).toEqual([]);
  });
});
