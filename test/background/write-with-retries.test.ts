import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  type RowWrite,
  resetWriteBehindFigures,
  retryDelaysMs,
  writeWithRetries,
} from '../../src/background/write-with-retries';
import { call } from '../helpers/api';

const receipt: RowWrite = {
  kind: 'receipt',
  row: {
    tenant: 'acme',
    id: '0b7e2c1a-3f4d-4e5f-8a9b-0c1d2e3f4a5b',
    saltGenerated: true,
    logOrigin: 'valve.local/log/0',
    logIndex: 7,
    kid: 'kid',
    iat: 1,
    provider: 'sim',
    model: 'fast',
    region: 'us',
    costUsd: 0.001,
    jws: 'a.b.c',
    proof: 'proof',
    replay: null,
    replayExpiresAt: null,
  },
};
const usage: RowWrite = {
  kind: 'usage',
  record: {
    tenant: 'acme',
    key: null,
    route: '/v1/reason',
    model: 'sim/fast',
    input_tokens: 1,
    output_tokens: 1,
    latency_ms: 1,
    outcome: 'ok',
    fallbacks: 0,
    stream: false,
    cost_usd: 0.001,
    created_at: 1,
  },
};

afterEach(() => {
  resetWriteBehindFigures();
  vi.restoreAllMocks();
});

describe('writes behind the answer', () => {
  it('retries a failed batch and stops at the first success', async () => {
    const slept: number[] = [];
    let calls = 0;
    await writeWithRetries(
      [receipt],
      async () => {
        calls++;
        if (calls < 3) throw new Error('D1 is busy');
      },
      async (ms) => void slept.push(ms),
    );
    expect(calls).toBe(3);
    expect(slept).toEqual(retryDelaysMs.slice(0, 2));
    const health = (await (await call('/health')).json()) as { writeBehind: Record<string, number> };
    expect(health.writeBehind).toEqual({ retriedBatches: 1, lostReceipts: 0, lostUsageRecords: 0 });
  });

  it('records a batch that still fails: an error line naming each receipt, and the count in GET /health', async () => {
    const logged: string[] = [];
    vi.spyOn(console, 'error').mockImplementation((line: unknown) => void logged.push(String(line)));
    let calls = 0;
    await writeWithRetries(
      [receipt, usage],
      async () => {
        calls++;
        throw new Error('D1 is down');
      },
      async () => undefined,
    );
    expect(calls).toBe(retryDelaysMs.length + 1);
    const line = JSON.parse(logged[0] ?? '{}') as { event: string; receipts: { id: string; jws: string }[] };
    expect(line.event).toBe('write_behind.lost');
    expect(line.receipts.map((r) => [r.id, r.jws])).toEqual([[receipt.row.id, 'a.b.c']]);
    const health = (await (await call('/health')).json()) as { writeBehind: Record<string, number> };
    expect(health.writeBehind).toEqual({ retriedBatches: 1, lostReceipts: 1, lostUsageRecords: 1 });
  });
});
