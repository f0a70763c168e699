import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { writeBehindFigures } from '../../src/background/write-with-retries';
import { reasonRequestSchema } from '../../src/contracts/reason-request';
import { type ReasonResponse, reasonResponseSchema } from '../../src/contracts/reason-response';
import type { VerifyReport } from '../../src/contracts/receipt-bodies';
import { parseTlogProof } from '../../src/log/tlog-proof';
import { defaultCatalog } from '../../src/policy/default-catalog';
import { buildDisclosure } from '../../src/receipts/disclose';
import { call, createKey, postJson, reason } from '../helpers/api';
import { failingWrites } from '../helpers/d1-faults';
import { callWithCatalog, reasonWithCatalog } from '../helpers/with-catalog';

const salt = 'c2FsdHNhbHRzYWx0c2FsdHNhbHRzYWx0c2FsdHNhbHRzYWx0';
const request = reasonRequestSchema.parse({
  task: 'summarize',
  instructions: 'Summarize the ticket in one sentence.',
  context: [{ label: 'ticket', trust: 'untrusted', privacy: 'internal', content: 'The printer is on fire.' }],
  receiptSalt: salt,
});

async function answer(key: string, body: unknown = request): Promise<ReasonResponse> {
  const res = await reason(key, body);
  expect(res.status).toBe(200);
  return reasonResponseSchema.parse(await res.json());
}

async function verify(bundle: unknown): Promise<VerifyReport> {
  const res = await postJson('/v1/receipts/verify', bundle);
  expect(res.status).toBe(200);
  return (await res.json()) as VerifyReport;
}

describe('receipts, end to end in the worker', () => {
  it('issues a receipt whose full-salt bundle verifies field by field', async () => {
    const { key } = await createKey();
    const response = await answer(key);
    expect(response.receipt?.receiptSalt).toBeUndefined();
    const report = await verify(await buildDisclosure({ request, response, salt, tenant: 'acme' }));
    expect(report.checks.filter((c) => !c.ok)).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.typ).toBe('valve-receipt/v2');
    expect(report.fields.every((f) => f.status === 'verified')).toBe(true);
    expect(report.fields.map((f) => f.field)).toContain('req.context[0]');
  });

  it('returns a Valve-generated salt once, and it opens the receipt', async () => {
    const { key } = await createKey();
    const { receiptSalt: _, ...unsalted } = request;
    const response = await answer(key, unsalted);
    const generated = response.receipt?.receiptSalt as string;
    expect(generated).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const report = await verify(await buildDisclosure({ request: unsalted, response, salt: generated }));
    expect(report.ok).toBe(true);
  });

  it('verifies a bundle opening only res.output and req.instructions and lists the rest as committed', async () => {
    const { key } = await createKey();
    const response = await answer(key);
    const bundle = await buildDisclosure({
      request,
      response,
      salt,
      fields: ['res.output', 'req.instructions'],
    });
    expect(bundle.salt).toBeUndefined();
    const report = await verify(bundle);
    expect(report.ok).toBe(true);
    const verified = report.fields.filter((f) => f.status === 'verified').map((f) => f.field);
    expect(verified.sort()).toEqual(['req.instructions', 'res.output']);
    // The ten other v1 fields, the tenant and the one context item stay closed.
    expect(report.fields.filter((f) => f.status === 'committed, not disclosed')).toHaveLength(12);
  });

  it('answers the stored receipt to its tenant only, without content', async () => {
    const own = await createKey('tenant-a');
    const other = await createKey('tenant-b');
    const response = await answer(own.key);
    const mine = await call(`/v1/receipts/${response.receiptId}`, {
      headers: { Authorization: `Bearer ${own.key}` },
    });
    expect(mine.status).toBe(200);
    const stored = (await mine.json()) as Record<string, unknown>;
    expect(stored.jws).toBe(response.receipt?.jws);
    expect(JSON.stringify(stored)).not.toContain('printer');
    const theirs = await call(`/v1/receipts/${response.receiptId}`, {
      headers: { Authorization: `Bearer ${other.key}` },
    });
    expect(theirs.status).toBe(404);
    expect(((await theirs.json()) as { error: { code: string } }).error.code).toBe('receipt.not_found');
  });

  it('serves a stored receipt with a proof at the log’s latest checkpoint, which verifies', async () => {
    const { key } = await createKey('tenant-proof');
    const auth = { headers: { Authorization: `Bearer ${key}` } };
    const { receiptSalt: _, ...plain } = request;
    const first = await answer(key, plain);
    const claimed = await answer(key, { ...request, receiptId: crypto.randomUUID() });
    const later = await answer(key, plain);
    const laterIndex = parseTlogProof(later.receipt?.proof ?? '');
    if (!laterIndex.ok) throw new Error(laterIndex.reason);
    for (const issued of [first, claimed]) {
      const res = await call(`/v1/receipts/${issued.receiptId}`, auth);
      expect(res.status).toBe(200);
      const stored = (await res.json()) as { jws: string; proof: string; log: { index: number } };
      expect(stored.jws).toBe(issued.receipt?.jws);
      const report = await verify({ jws: stored.jws, proof: stored.proof, open: {} });
      expect(report.checks.filter((c) => !c.ok)).toEqual([]);
      expect(report.log?.index).toBe(stored.log.index);
      // Not the proof the answer carried: one at a checkpoint that holds the receipts logged since.
      expect(report.log?.treeSize).toBeGreaterThan(laterIndex.value.index);
    }
  });

  it('finds a receipt whose row is still on its way, its first write failed and retried', async () => {
    const { key } = await createKey('tenant-late-row');
    // D1 whose first write of a receipt row (the one behind the answer) fails, as a busy database would.
    const DB = failingWrites(env.DB, (sql) => sql.includes('INSERT INTO receipts'));
    const retriedBefore = writeBehindFigures().retriedBatches;
    const { receiptSalt: _, ...plain } = request;
    const posted = await reasonWithCatalog(defaultCatalog, key, plain, { DB });
    const issued = reasonResponseSchema.parse(await posted.res.json());
    // Asked at once, while the row waits out its retry: the lookup reads again until it is there.
    const got = await callWithCatalog(
      defaultCatalog,
      `/v1/receipts/${issued.receiptId}`,
      { headers: { Authorization: `Bearer ${key}` } },
      { DB },
    );
    expect(got.res.status).toBe(200);
    expect(((await got.res.json()) as { jws: string }).jws).toBe(issued.receipt?.jws);
    expect(writeBehindFigures().retriedBatches).toBeGreaterThanOrEqual(retriedBefore + 1);
    await posted.settled();
  });
});
