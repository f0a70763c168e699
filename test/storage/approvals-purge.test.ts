import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import type { HeldCall } from '../../src/contracts/approvals';
import { argsSha256 } from '../../src/receipts/capability-token';
import { decideHeldCall, findHeldCalls, insertHeldCalls } from '../../src/storage/approvals';

// A held call's arguments are content: kept for the reviewer while its window lasts, purged in the
// round trip of a later hold once it passed, decided or not; their digest (what the audit record
// commits to) stays.

function heldCall(callId: string, heldAt: number, windowMs: number): HeldCall {
  return {
    tenant: 'purge-tenant',
    receiptId: '0f0e2a6c-5b1d-4c8e-9a7f-0123456789ab',
    callId,
    tool: 'delete_files',
    args: { path: `/srv/${callId}` },
    tools: [{ name: 'delete_files', inputSchema: { type: 'object' } }],
    allowed: ['approve', 'reject'],
    tainted: true,
    heldAt,
    expiresAt: heldAt + windowMs,
  };
}

async function stored(callId: string) {
  const [row] = await findHeldCalls(env.DB, 'purge-tenant', callId);
  const raw = await env.DB.prepare('SELECT args_sha256 FROM approvals WHERE call_id = ?')
    .bind(callId)
    .first<{ args_sha256: string }>();
  return { row, digest: raw?.args_sha256 };
}

describe('the arguments of held calls', () => {
  it('are purged once the window passed, keeping their digest; calls in their window keep them', async () => {
    const now = Date.now();
    await insertHeldCalls(env.DB, [
      heldCall('call_old', now - 10_000, 1_000),
      heldCall('call_open', now - 10_000, 60_000),
    ]);
    // An edit decided while the window was open keeps the reviewer's arguments until it ends.
    const key = {
      tenant: 'purge-tenant',
      receiptId: '0f0e2a6c-5b1d-4c8e-9a7f-0123456789ab',
      callId: 'call_old',
    };
    const edit = { type: 'edit', args: { path: '/srv/tmp' } };
    expect(
      await decideHeldCall(env.DB, key, { status: 'edited', decision: edit, by: 'key_r', at: now - 9_500 }),
    ).toBe(true);
    const before = await stored('call_old');
    expect(before.row?.decision).toEqual(edit);
    expect(before.row?.args).toEqual({ path: '/srv/call_old' });
    expect(before.row?.argsPurgedAt).toBeNull();
    await insertHeldCalls(env.DB, [heldCall('call_new', now, 60_000)]);
    const old = await stored('call_old');
    expect(old.row?.args).toEqual({});
    expect(old.row?.tools).toEqual([]);
    expect(old.row?.argsPurgedAt).toBe(now);
    expect(old.row?.decision).toEqual({ type: 'edit' });
    expect(old.digest).toBe(argsSha256({ path: '/srv/call_old' }));
    expect((await stored('call_open')).row?.args).toEqual({ path: '/srv/call_open' });
  });
});
