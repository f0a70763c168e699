import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import {
  logOriginFor,
  logOriginOf,
  shardPolicyOf,
  witnessDelayOf,
  witnessQuorumOf,
} from '../../src/log/log-settings';
import { shardOrigin } from '../../src/log/log-shards';

// The log's settings as the code reads them: LOG_ORIGIN, LOG_SHARDS and the witnesses' quorum and delay.

const base = logOriginOf(env);

describe('LOG_SHARDS', () => {
  it('is single when unset, and a value that is no policy is an error, never silently single', () => {
    expect(shardPolicyOf({})).toEqual({ kind: 'single' });
    expect(() => shardPolicyOf({ LOG_SHARDS: 'tenant-groups:9999' })).toThrow(/LOG_SHARDS/);
    expect(logOriginFor({ LOG_ORIGIN: base }, 'acme', 0)).toBe(base);
    expect(logOriginFor({ LOG_ORIGIN: base, LOG_SHARDS: 'monthly' }, 'acme', Date.UTC(2026, 0, 5))).toBe(
      shardOrigin(base, '2026-01'),
    );
  });
});

describe('LOG_ORIGIN and the witnesses’ settings', () => {
  it('read their defaults when unset or blank, and the value when it is one', () => {
    expect(logOriginOf({})).toBe('valve.local/log/0');
    expect(logOriginOf({ LOG_ORIGIN: ' ex.test/log/a ' })).toBe('ex.test/log/a');
    expect([witnessQuorumOf({}), witnessDelayOf({ LOG_WITNESS_DELAY_MS: '' })]).toEqual([1, 1000]);
    expect([
      witnessQuorumOf({ LOG_WITNESS_QUORUM: '2' }),
      witnessDelayOf({ LOG_WITNESS_DELAY_MS: '5' }),
    ]).toEqual([2, 5]);
    expect(witnessQuorumOf({ LOG_WITNESS_QUORUM: '0' })).toBe(1);
  });
});
