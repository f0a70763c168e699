import { describe, expect, it } from 'vitest';
import { reasonRequestSchema } from '../../src/contracts/reason-request';
import { type ReasonResponse, reasonResponseSchema } from '../../src/contracts/reason-response';
import type { VerifyReport } from '../../src/contracts/receipt-bodies';
import { decodeBase64Url } from '../../src/encoding/base64';
import { buildDisclosure } from '../../src/receipts/disclose';
import { createKey, postJson, reason } from '../helpers/api';

// v2 receipts through the route: one commitment per context item and conversation turn, so one
// document opens without the others; and the tenant committed under the caller's salt, so two
// tenants holding one receiptId hold receipts that say which tenant each was issued to.

const salt = 'dHdvLXRlbmFudHMtdHdvLXRlbmFudHMtdHdvLXRlbmFudHMtdHdv';
const item = (label: string, content: string) => ({
  label,
  trust: 'untrusted',
  privacy: 'internal',
  content,
});
const request = reasonRequestSchema.parse({
  task: 'compare',
  instructions: 'Compare the three quotes.',
  context: [
    item('quote A', 'Ten dollars.'),
    item('quote B', 'Twelve dollars.'),
    item('quote C', 'Nine dollars.'),
  ],
  conversation: [{ role: 'user', content: 'Which is cheapest?' }],
  receiptSalt: salt,
});

async function answer(key: string, body: unknown): Promise<ReasonResponse> {
  const res = await reason(key, body);
  expect(res.status).toBe(200);
  return reasonResponseSchema.parse(await res.json());
}

async function verify(bundle: unknown, tenant?: string): Promise<VerifyReport> {
  const query = tenant === undefined ? '' : `?tenant=${encodeURIComponent(tenant)}`;
  const res = await postJson(`/v1/receipts/verify${query}`, bundle);
  expect(res.status).toBe(200);
  return (await res.json()) as VerifyReport;
}

function cmtOf(response: ReasonResponse): Record<string, string> {
  const payload = decodeBase64Url(response.receipt?.jws.split('.')[1] ?? '') as Uint8Array;
  return (JSON.parse(new TextDecoder().decode(payload)) as { cmt: Record<string, string> }).cmt;
}

describe('v2 receipts: per-item disclosure', () => {
  it('commits to each context item and turn, and opens one of three items alone', async () => {
    const { key } = await createKey('items');
    const response = await answer(key, request);
    const cmt = cmtOf(response);
    expect(Object.keys(cmt).filter((n) => n.includes('['))).toEqual(
      expect.arrayContaining(['req.context[0]', 'req.context[1]', 'req.context[2]', 'req.conversation[0]']),
    );
    const bundle = await buildDisclosure({ request, response, salt, fields: ['req.context[1]'] });
    expect(Object.keys(bundle.open)).toEqual(['req.context[1]']);
    expect(JSON.stringify(bundle)).not.toContain('Ten dollars');
    expect(JSON.stringify(bundle)).not.toContain('Nine dollars');
    const report = await verify(bundle);
    expect(report.checks.filter((c) => !c.ok)).toEqual([]);
    const status = Object.fromEntries(report.fields.map((f) => [f.field, f.status]));
    expect(status['req.context[1]']).toBe('verified');
    expect(status['req.context[0]']).toBe('committed, not disclosed');
    expect(status['req.context[2]']).toBe('committed, not disclosed');
    expect(status['req.context']).toBe('committed, not disclosed');
  });

  it('fails an opened item whose content changed by one byte, or that is moved to another index', async () => {
    const { key } = await createKey('items');
    const response = await answer(key, { ...request, receiptId: crypto.randomUUID() });
    const bundle = await buildDisclosure({ request, response, salt, fields: ['req.context[1]'] });
    const opened = bundle.open['req.context[1]'] as { value: { content: string }; key: string };
    const changed = {
      ...bundle,
      open: { 'req.context[1]': { ...opened, value: { ...opened.value, content: 'Twelve dollarz.' } } },
    };
    expect((await verify(changed)).checks.find((c) => !c.ok)?.check).toBe('open.req.context[1]');
    const moved = { ...bundle, open: { 'req.context[2]': opened } };
    expect((await verify(moved)).checks.find((c) => !c.ok)?.check).toBe('open.req.context[2]');
    const beyond = { ...bundle, open: { 'req.context[3]': opened } };
    const report = await verify(beyond);
    expect(report.checks.find((c) => !c.ok)).toMatchObject({ check: 'open.req.context[3]' });
  });
});

describe('v2 receipts: the tenant', () => {
  it('gives two tenants with one receiptId receipts that differ in the tenant commitment', async () => {
    const receiptId = crypto.randomUUID();
    const body = { ...request, receiptId };
    const first = await answer((await createKey('tenant-one')).key, body);
    const second = await answer((await createKey('tenant-two')).key, body);
    expect(second.receiptId).toBe(first.receiptId);
    const [a, b] = [cmtOf(first), cmtOf(second)];
    expect(a['req.tenant']).not.toBe(b['req.tenant']);
    for (const name of Object.keys(a).filter((n) => n.startsWith('req.') && n !== 'req.tenant')) {
      expect(a[name], name).toBe(b[name]);
    }
  });

  it('verifies the tenant when the auditor names it, with the salt or with the tenant key alone', async () => {
    const receiptId = crypto.randomUUID();
    const response = await answer((await createKey('tenant-one')).key, { ...request, receiptId });
    const full = await buildDisclosure({ request, response, salt });
    expect((await verify(full, 'tenant-one')).ok).toBe(true);
    const other = await verify(full, 'tenant-two');
    expect(other.ok).toBe(false);
    expect(other.checks.find((c) => !c.ok)).toMatchObject({
      check: 'tenant',
      detail: 'not issued to tenant "tenant-two"',
    });
    const keyed = await buildDisclosure({
      request,
      response,
      salt,
      fields: ['res.output'],
      tenant: 'tenant-one',
    });
    expect(keyed.salt).toBeUndefined();
    expect((await verify(keyed, 'tenant-one')).ok).toBe(true);
    expect((await verify(keyed, 'tenant-two')).ok).toBe(false);
    const closed = await buildDisclosure({ request, response, salt, fields: ['res.output'] });
    const unchecked = await verify(closed, 'tenant-one');
    expect(unchecked.verdict).toBe('could not check');
    expect((await postJson('/v1/receipts/verify?tenant=', full)).status).toBe(400);
  });
});
