import { describe, expect, it } from 'vitest';
import type { AuditRecord } from '../../src/audit/audit-chain';
import { verifyAuditHead } from '../../src/audit/verify-audit-head';
import { type AuditProofs, auditProofsSchema } from '../../src/contracts/audit-proofs';
import { type TrustRoot, trustRootSchema } from '../../src/contracts/trust-root';
import { adminToken, call, createKey } from '../helpers/api';

const admin = { Authorization: `Bearer ${adminToken}` };

/** A trail of three records, the proof of its newest record, and the trust root, from the Worker. */
async function trail(): Promise<{ records: AuditRecord[]; proofs: AuditProofs; root: TrustRoot }> {
  const created = await createKey('head', ['reason']);
  await call(`/v1/admin/keys/${created.id}`, { method: 'DELETE', headers: admin });
  await call('/v1/admin/tenants/head/budget', {
    method: 'PUT',
    headers: { ...admin, 'Content-Type': 'application/json' },
    body: JSON.stringify({ monthlyCapUsd: 5 }),
  });
  const { records } = (await (await call('/v1/admin/audit', { headers: admin })).json()) as {
    records: AuditRecord[];
  };
  const last = records.at(-1)?.seq ?? 1;
  const proofs = auditProofsSchema.parse(
    await (await call(`/v1/admin/audit/proofs?after=${last - 1}&limit=1`, { headers: admin })).json(),
  );
  const root = trustRootSchema.parse(await (await call('/v1/trust-root')).json());
  return { records, proofs, root };
}

describe('the audit trail’s head, as the console checks it', () => {
  it('verifies the chain and the newest record’s entry in the log under a signed checkpoint', async () => {
    const { records, proofs, root } = await trail();
    // The trail holds this test's three records and any that files run before it in this runtime made.
    const newest = records.length;
    expect(newest).toBeGreaterThanOrEqual(3);
    expect(records.map((r) => r.seq)).toEqual(Array.from({ length: newest }, (_, i) => i + 1));
    expect(proofs.proofs.map((p) => p.seq)).toEqual([newest]);
    const report = await verifyAuditHead(records, proofs, root);
    expect(report.checks).toEqual([
      { check: 'audit.chain', ok: true, detail: `${newest} records link from genesis` },
      {
        check: 'log.checkpoint',
        ok: true,
        detail: expect.stringMatching(/^valve\.local\/log\/0 at size \d+$/),
      },
      {
        check: 'audit.inclusion',
        ok: true,
        detail: expect.stringMatching(
          new RegExp(`^records 1 to ${newest} are in the log \\(seq ${newest} is entry \\d+\\)$`),
        ),
      },
    ]);
    expect(report.ok).toBe(true);
  });

  it('fails on an edited record, a checkpoint under another key, and a proof that leads elsewhere', async () => {
    const { records, proofs, root } = await trail();
    const edited = records.map((r) => (r.seq === 1 ? { ...r, subject: 'key_other' } : r));
    expect((await verifyAuditHead(edited, proofs, root)).checks[0]).toMatchObject({
      check: 'audit.chain',
      ok: false,
    });

    // Another key: the last character changed (to one it is not: the keys are fresh each run).
    const otherKey = root.logs.map((log) => ({
      ...log,
      verifierKey: log.verifierKey.replace(/.$/, (last) => (last === 'A' ? 'B' : 'A')),
    }));
    const unsigned = await verifyAuditHead(records, proofs, { ...root, logs: otherKey });
    expect(unsigned.ok).toBe(false);
    expect(unsigned.checks[1]).toMatchObject({ check: 'log.checkpoint', ok: false });

    const moved = {
      ...proofs,
      proofs: proofs.proofs.map((p) => ({ ...p, index: p.index === 0 ? 1 : p.index - 1 })),
    };
    const elsewhere = await verifyAuditHead(records, moved, root);
    expect(elsewhere.checks[2]).toMatchObject({ check: 'audit.inclusion', ok: false });
  });

  it('says when no record of the trail is in a checkpoint yet, and passes an empty trail', async () => {
    const { records, proofs, root } = await trail();
    const none = await verifyAuditHead(records, { ...proofs, proofs: [] }, root);
    expect(none.checks[2]).toEqual({
      check: 'audit.inclusion',
      ok: false,
      detail: 'no record of the trail is in a checkpoint yet',
    });
    expect(await verifyAuditHead([], { ...proofs, proofs: [] }, root)).toEqual({
      ok: true,
      records: 0,
      checks: [{ check: 'audit.chain', ok: true, detail: '0 records link from genesis' }],
    });
  });
});
