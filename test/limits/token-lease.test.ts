import { env, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { RateLimiter } from '../../src/limits/rate-limiter';
import { type Bucket, takeTokens } from '../../src/limits/token-bucket';
import { type Drawn, leaseSizeOf, TokenLeases } from '../../src/limits/token-lease';

/** One key's bucket, shared by several isolates' leases, on a clock the test moves. */
function sharedBucket(perMinute: number) {
  let bucket: Bucket | undefined;
  const clock = { now: 0 };
  const draws: number[] = [];
  const draw = async (limit: number, want: number): Promise<Drawn> => {
    draws.push(want);
    const result = takeTokens(bucket, limit, clock.now, want);
    bucket = result.bucket;
    return result;
  };
  return { clock, draw, draws, perMinute };
}

describe('per-isolate token leases', () => {
  it('lets at most the limit plus one lease per isolate through in a burst', async () => {
    const perMinute = 600;
    const shared = sharedBucket(perMinute);
    const isolates = Array.from({ length: 4 }, () => new TokenLeases(() => shared.clock.now));
    const background: Promise<unknown>[] = [];
    const io = {
      draw: shared.draw,
      background: (work: () => Promise<unknown>) => void background.push(work()),
      wait: (work: () => Promise<void>) => work(),
    };
    // Each isolate serves one request and keeps the rest of its lease while the bucket refills.
    for (const isolate of isolates) expect((await isolate.take('key', perMinute, io)).allowed).toBe(true);
    await Promise.all(background);
    shared.clock.now = 9_000; // within the leases' lifetime, long enough to refill the bucket whole
    const outcomes = await Promise.all(
      isolates.flatMap((isolate) => Array.from({ length: 400 }, () => isolate.take('key', perMinute, io))),
    );
    await Promise.all(background);
    const allowed = outcomes.filter((o) => o.allowed).length;
    // The documented overshoot: the bucket's capacity plus what the leases held outside it.
    expect(allowed).toBeGreaterThan(perMinute);
    expect(allowed).toBeLessThanOrEqual(perMinute + isolates.length * leaseSizeOf(perMinute));
  });

  it('asks the key’s object only when a lease runs dry, and refills behind the answer', async () => {
    const shared = sharedBucket(6000);
    const leases = new TokenLeases(() => shared.clock.now);
    let waits = 0;
    const background: Promise<unknown>[] = [];
    const io = {
      draw: shared.draw,
      background: (work: () => Promise<unknown>) => void background.push(work()),
      wait: (work: () => Promise<void>) => {
        waits++;
        return work();
      },
    };
    for (let i = 0; i < 200; i++) {
      expect((await leases.take('key', 6000, io)).allowed).toBe(true);
      await Promise.all(background);
    }
    expect(waits).toBe(1);
    expect(shared.draws.length).toBeGreaterThan(1);
  });

  it('never waits on another request’s refill: a request that finds one in flight draws its own token', async () => {
    // Waiting on a draw another request made leaves a request with no I/O of its own, and workerd
    // cancels such a request as hung when the thread goes idle.
    const shared = sharedBucket(600);
    const leases = new TokenLeases(() => shared.clock.now);
    let open = () => {};
    const held = new Promise<void>((resolve) => {
      open = resolve;
    });
    let calls = 0;
    const io = {
      // The first draw (the lease's refill) is held; any later one answers at once.
      draw: async (limit: number, want: number) => {
        calls++;
        if (calls === 1) await held;
        return shared.draw(limit, want);
      },
      background: () => undefined,
      wait: (work: () => Promise<void>) => work(),
    };
    const first = leases.take('key', 600, io);
    const second = await Promise.race([
      leases.take('key', 600, io),
      new Promise<'waited'>((resolve) => setTimeout(() => resolve('waited'), 50)),
    ]);
    expect(second).not.toBe('waited');
    expect(second !== 'waited' && second.allowed).toBe(true);
    expect(shared.draws).toEqual([1]);
    open();
    expect((await first).allowed).toBe(true);
    expect(shared.draws).toEqual([1, leaseSizeOf(600)]);
  });

  it('refuses without asking again until the bucket has a token, with the time until then', async () => {
    const shared = sharedBucket(60);
    const leases = new TokenLeases(() => shared.clock.now);
    const io = {
      draw: shared.draw,
      background: () => undefined,
      wait: (work: () => Promise<void>) => work(),
    };
    for (let i = 0; i < 60; i++) expect((await leases.take('key', 60, io)).allowed).toBe(true);
    const refused = await leases.take('key', 60, io);
    expect(refused).toMatchObject({ allowed: false, retryAfterMs: 1000 });
    const draws = shared.draws.length;
    expect((await leases.take('key', 60, io)).allowed).toBe(false);
    expect(shared.draws.length).toBe(draws);
    shared.clock.now = 1000;
    expect((await leases.take('key', 60, io)).allowed).toBe(true);
  });
});

describe('RateLimiter bucket across restarts', () => {
  it('keeps a spent bucket when the object is rebuilt from its storage', async () => {
    const stub = env.RATE_LIMITER.getByName('restart-key');
    expect(await stub.lease(3, 3)).toMatchObject({ granted: 3 });
    await runInDurableObject(stub, (_instance, state) => {
      // A new instance over the same storage is what an eviction or a restart gives.
      const restarted = new RateLimiter(state, env);
      expect(restarted.lease(3, 3).granted).toBe(0);
    });
  });
});
