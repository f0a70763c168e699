import { env, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { createCosigner, formatCosignerKey, readCosignatures } from '../../src/log/cosignature';
import { LogWitnessing, MAX_ANSWER_BYTES } from '../../src/log/log-witnessing';
import { createNoteSigner, formatVerifierKey } from '../../src/log/signed-note';
import { parseWitnessList } from '../../src/log/witness-config';
import { Witness } from '../../src/witness/witness';
import { MemoryStore, seed, TestLog } from '../witness/test-log';

// The log's side of c2sp.org/tlog-witness: each round pushes the latest checkpoint to every witness
// with a consistency proof from what that witness holds, and records only cosignatures that verify.

const ORIGIN = 'valve.test/log/w';
let objects = 0;

async function setup(names: string[]) {
  const logSigner = await createNoteSigner(ORIGIN, seed(1));
  const logKey = formatVerifierKey(ORIGIN, logSigner.publicKey);
  const witnesses = await Promise.all(
    names.map(async (name, i) => {
      const cosigner = await createCosigner(name, seed(20 + i));
      const store = new MemoryStore();
      return { name, cosigner, store, witness: new Witness(cosigner, [logKey], store) };
    }),
  );
  const list = parseWitnessList(
    witnesses.map((w) => `${formatCosignerKey(w.name, w.cosigner.publicKey)} https://${w.name}/`).join('\n'),
  );
  if (!list.ok) throw new Error(list.reason);
  const down = new Set<string>();
  const pushes: string[] = [];
  /** Routes a push to the in-process witness its URL names. */
  const send: typeof fetch = async (input, init) => {
    const url = new URL(String(input));
    pushes.push(`${url.host} ${String(init?.body).split('\n', 1)[0]}`);
    if (down.has(url.host)) throw new TypeError('connection refused');
    const w = witnesses.find((x) => x.name === url.host);
    if (w === undefined || url.pathname !== '/add-checkpoint') return new Response('no', { status: 404 });
    const answer = await w.witness.addCheckpoint(String(init?.body));
    return new Response(answer.body, {
      status: answer.status,
      headers: { 'content-type': answer.contentType },
    });
  };
  const log = new TestLog(logSigner, 'honest');
  const stub = env.RECEIPT_LOG.getByName(`test-witnessing-${objects++}`);
  const source = () => ({
    latest: () => ({ size: log.tree.size, note: '' }),
    consistency: (from: number, to: number) => log.tree.consistencyProof(from, to),
  });
  /** One round at the log's current size. */
  const round = async (witnessing: LogWitnessing) => {
    const note = await log.checkpoint();
    return witnessing.round({ ...source(), latest: () => ({ size: log.tree.size, note }) });
  };
  return { witnesses, list: list.value, send, log, stub, round, down, pushes, logSigner };
}

describe('a log pushing its checkpoints to witnesses', () => {
  it('gathers every witness cosignature on the latest checkpoint, and pushes from what each holds', async () => {
    const t = await setup(['w1.test', 'w2.test']);
    await runInDurableObject(t.stub, async (_i, state) => {
      const witnessing = new LogWitnessing(state.storage.sql, t.list, t.send);
      t.log.grow(5);
      const first = await t.round(witnessing);
      expect(first.outcomes.map((o) => o.ok)).toEqual([true, true]);
      t.log.grow(12);
      await t.round(witnessing);
      expect(t.pushes).toEqual(['w1.test old 0', 'w2.test old 0', 'w1.test old 5', 'w2.test old 5']);
      const cosigned = witnessing.latestCosigned(2);
      expect(cosigned?.size).toBe(12);
      const read = await readCosignatures(
        cosigned?.note ?? '',
        t.witnesses.map((w) => w.cosigner),
      );
      expect(read.ok && read.value.cosignatures.map((c) => c.name)).toEqual(['w1.test', 'w2.test']);
      // A round with nothing new pushes nothing.
      await t.round(witnessing);
      expect(t.pushes).toHaveLength(4);
      // Size 5, cosigned by as many, is never an answer again: the table keeps size 12 only.
      const rows = state.storage.sql.exec<{ size: number }>('SELECT size FROM log_cosigned').toArray();
      expect(rows.map((r) => r.size)).toEqual([12]);
    });
  });

  it('starts again from the size a witness names in its 409, with a proof from there', async () => {
    const t = await setup(['w1.test']);
    t.log.grow(7);
    const w = t.witnesses[0] as (typeof t.witnesses)[number];
    // The witness already cosigned size 4 (pushed by an earlier object, say); the log's table says 0.
    expect((await w.witness.addCheckpoint(await t.log.body(0, 4))).status).toBe(200);
    await runInDurableObject(t.stub, async (_i, state) => {
      const witnessing = new LogWitnessing(state.storage.sql, t.list, t.send);
      const round = await t.round(witnessing);
      expect(round.outcomes).toEqual([{ name: 'w1.test', ok: true, detail: 'cosigned size 7' }]);
      expect(t.pushes).toEqual(['w1.test old 0', 'w1.test old 4']);
      expect(w.store.heads.get(ORIGIN)?.size).toBe(7);
    });
  });

  it('keeps the others when a witness is down, and counts only what is cosigned toward the quorum', async () => {
    const t = await setup(['w1.test', 'w2.test']);
    t.down.add('w2.test');
    await runInDurableObject(t.stub, async (_i, state) => {
      const witnessing = new LogWitnessing(state.storage.sql, t.list, t.send);
      t.log.grow(3);
      const round = await t.round(witnessing);
      expect(round.outcomes[1]).toEqual({
        name: 'w2.test',
        ok: false,
        detail: 'could not reach https://w2.test: connection refused',
      });
      expect(witnessing.latestCosigned(1)?.size).toBe(3);
      expect(witnessing.latestCosigned(2)).toBeNull();
      t.down.clear();
      await t.round(witnessing);
      expect(t.pushes.slice(-1)).toEqual(['w2.test old 0']);
      expect(witnessing.latestCosigned(2)?.size).toBe(3);
      // A later checkpoint with fewer cosignatures leaves the one with more as the answer to its quorum.
      t.down.add('w2.test');
      t.log.grow(8);
      await t.round(witnessing);
      expect(witnessing.latestCosigned(1)?.size).toBe(8);
      expect(witnessing.latestCosigned(2)?.size).toBe(3);
      // The table survives the object: a new LogWitnessing over the same SQLite knows it.
      expect(new LogWitnessing(state.storage.sql, t.list, t.send).latestCosigned(2)?.size).toBe(3);
      expect(new LogWitnessing(state.storage.sql, t.list, t.send).latestCosigned(1)?.size).toBe(8);
    });
  });

  it('records no cosignature a witness key did not make, and reports a witness that saw another history', async () => {
    const t = await setup(['w1.test', 'w2.test']);
    const impostor = await createCosigner('w1.test', seed(99));
    const forgedBy = new Witness(
      impostor,
      [formatVerifierKey(ORIGIN, t.logSigner.publicKey)],
      new MemoryStore(),
    );
    const forked = new TestLog(t.logSigner, 'forked');
    forked.grow(6);
    const w2 = t.witnesses[1] as (typeof t.witnesses)[number];
    expect((await w2.witness.addCheckpoint(await forked.body(0))).status).toBe(200);
    const send: typeof fetch = async (input, init) => {
      if (new URL(String(input)).host !== 'w1.test') return t.send(input, init);
      const answer = await forgedBy.addCheckpoint(String(init?.body));
      return new Response(answer.body, {
        status: answer.status,
        headers: { 'content-type': answer.contentType },
      });
    };
    await runInDurableObject(t.stub, async (_i, state) => {
      const witnessing = new LogWitnessing(state.storage.sql, t.list, send);
      t.log.grow(6);
      const round = await t.round(witnessing);
      expect(round.outcomes).toEqual([
        { name: 'w1.test', ok: false, detail: 'answered no cosignature by its key that verifies' },
        {
          name: 'w2.test',
          ok: false,
          detail: 'answered 409: a different tree of size 6 than the one this witness cosigned',
        },
      ]);
      expect(witnessing.latestCosigned(1)).toBeNull();
      expect(witnessing.cosignedAt(6)).toBeUndefined();
    });
  });

  it('stops reading a witness that answers 200 and keeps sending, and records nothing from it', async () => {
    const t = await setup(['w1.test']);
    t.log.grow(3);
    // The answer starts with the witness's own valid cosignature, then never ends (16 MiB, here).
    const w = t.witnesses[0] as (typeof t.witnesses)[number];
    const cosigned = await w.witness.addCheckpoint(await t.log.body(0));
    const head = new TextEncoder().encode(String(cosigned.body));
    const padding = new TextEncoder().encode(`${'x'.repeat(4095)}\n`);
    let pulled = 0;
    const send: typeof fetch = async () => {
      let first = true;
      const body = new ReadableStream<Uint8Array>(
        {
          pull(controller) {
            const chunk = first ? head : padding;
            first = false;
            pulled += chunk.byteLength;
            if (pulled > 16 * 1024 * 1024) controller.close();
            else controller.enqueue(chunk.slice());
          },
        },
        { highWaterMark: 0 },
      );
      return new Response(body, { status: 200 });
    };
    await runInDurableObject(t.stub, async (_i, state) => {
      const witnessing = new LogWitnessing(state.storage.sql, t.list, send);
      const round = await t.round(witnessing);
      expect(round.outcomes).toEqual([
        { name: 'w1.test', ok: false, detail: `answered 200 with more than ${MAX_ANSWER_BYTES} bytes` },
      ]);
      // What was pulled: the bound, and at most the one chunk that crossed it.
      expect(pulled).toBeLessThanOrEqual(MAX_ANSWER_BYTES + padding.byteLength);
      expect(witnessing.latestCosigned(1)).toBeNull();
      expect(witnessing.cosignedAt(3)).toBeUndefined();
    });
  });

  it('follows no redirect: a 307 to another host is a failed round, and nothing reaches that host', async () => {
    const t = await setup(['w1.test']);
    const reached: string[] = [];
    // As fetch does: a redirect is followed unless the request says `redirect: 'manual'`. The other
    // host relays to the real witness, so whatever it answers would verify.
    const send: typeof fetch = async (input, init) => {
      const url = new URL(String(input));
      reached.push(url.host);
      if (url.host === 'w1.test') {
        const moved = new Response(null, {
          status: 307,
          headers: { location: 'https://elsewhere.test/add-checkpoint' },
        });
        return init?.redirect === 'manual' ? moved : send('https://elsewhere.test/add-checkpoint', init);
      }
      return t.send('https://w1.test/add-checkpoint', init);
    };
    await runInDurableObject(t.stub, async (_i, state) => {
      const witnessing = new LogWitnessing(state.storage.sql, t.list, send);
      t.log.grow(4);
      const round = await t.round(witnessing);
      expect(round.outcomes).toEqual([
        { name: 'w1.test', ok: false, detail: 'answered 307, a redirect, which is not followed' },
      ]);
      expect(reached).toEqual(['w1.test']);
      expect(witnessing.latestCosigned(1)).toBeNull();
    });
  });

  it('parses LOG_WITNESSES and refuses a list it cannot use', () => {
    expect(parseWitnessList('').ok && parseWitnessList('')).toEqual({ ok: true, value: [] });
    expect(parseWitnessList('not-a-key https://w.test')).toMatchObject({ ok: false });
    expect(parseWitnessList('a b c')).toEqual({
      ok: false,
      reason: 'LOG_WITNESSES entry "a b c" is not "<verifier key> <URL>"',
    });
  });
});
