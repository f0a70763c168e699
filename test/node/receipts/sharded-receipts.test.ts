import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyCheckpoint } from '../../../src/log/checkpoint';
import { sizeAndRoot, TileReader } from '../../log/tile-reader';
import { applyMigrations, type RunningValve, startValve } from '../helpers/start-valve';
import { runCli } from './run-cli';
import { discloseAll, logKeys, request, save } from './two-bundles';

// Shards on, end to end: a deployment with LOG_SHARDS=tenant-groups:4 appends each tenant's receipts to
// its group's shard; the trust root lists every shard with its key; valve-verify verifies receipts of
// any shard, holding one checkpoint per origin, and fetches a consistency proof from the right shard.
// Then the same deployment is restarted with LOG_SHARDS=single: no old receipt is orphaned.

const keys = logKeys();
const tenants = ['t0', 't1', 't2', 't3', 't4', 't5', 't6', 't7'];
let dir: string;
let storage: string;
let valve: RunningValve;
const tenantKeys = new Map<string, string>();
const origins = new Map<string, string>();
const receiptIds = new Map<string, string>();

async function keyFor(tenant: string): Promise<string> {
  const res = await fetch(`${valve.url}/v1/admin/keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${valve.adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ tenant, scopes: ['reason', 'receipts:read'] }),
  });
  if (res.status !== 201) throw new Error(`key: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { key: string }).key;
}

async function askAs(
  key: string,
  body: Record<string, unknown>,
): Promise<{ receiptId: string; receipt: { proof: string } }> {
  const res = await fetch(`${valve.url}/v1/reason`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (res.status !== 200) throw new Error(`reason: ${res.status} ${await res.text()}`);
  return (await res.json()) as { receiptId: string; receipt: { proof: string } };
}

/** The origin a tlog-proof's checkpoint names (its first line after the blank line). */
const originOfProof = (proof: string) => proof.split('\n\n')[1]?.split('\n')[0] ?? '';

const verify = (bundle: string, ...extra: string[]) =>
  runCli([
    'verify',
    join(dir, bundle),
    '--trust-root',
    join(dir, 'root.json'),
    '--state',
    join(dir, 'state'),
    ...extra,
  ]);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'valve-shards-'));
  storage = mkdtempSync(join(tmpdir(), 'valve-shards-storage-'));
  await applyMigrations(storage);
  valve = await startValve({ vars: { ...keys, LOG_SHARDS: 'tenant-groups:4' }, persistDir: storage });
  for (const tenant of tenants) {
    const key = await keyFor(tenant);
    tenantKeys.set(tenant, key);
    const response = await askAs(key, request);
    origins.set(tenant, originOfProof(response.receipt.proof));
    receiptIds.set(tenant, response.receiptId);
    await discloseAll(dir, request, response, `${tenant}.json`);
  }
  save(dir, 'root.json', await (await fetch(`${valve.url}/v1/trust-root`)).json());
}, 120_000);

afterAll(async () => {
  await valve?.stop();
  rmSync(dir, { recursive: true, force: true });
  rmSync(storage, { recursive: true, force: true });
});

describe('a deployment with LOG_SHARDS=tenant-groups:4', () => {
  it('appends each tenant’s receipt to its group’s shard, and the trust root lists every shard', async () => {
    const root = (await (await fetch(`${valve.url}/v1/trust-root`)).json()) as { logs: { origin: string }[] };
    expect(root.logs.map((log) => log.origin)).toEqual([
      'valve.local/log/0',
      'valve.local/log/g0',
      'valve.local/log/g1',
      'valve.local/log/g2',
      'valve.local/log/g3',
    ]);
    const used = new Set(origins.values());
    expect(used.size).toBeGreaterThan(1);
    for (const origin of used) expect(origin).toMatch(/^valve\.local\/log\/g[0-3]$/);
  });

  it('verifies a receipt of every shard with valve-verify, holding one checkpoint per origin', async () => {
    for (const tenant of tenants) {
      // Two tenants of one group share a shard: the later checkpoint's consistency is fetched from it.
      const result = await verify(`${tenant}.json`, '--fetch', valve.url);
      expect(result.stdout).toContain('VERIFIED');
      expect(result.code).toBe(0);
    }
    const held = readdirSync(join(dir, 'state')).sort();
    expect(held).toEqual(
      [...new Set(origins.values())].map((origin) => `${encodeURIComponent(origin)}.checkpoint`).sort(),
    );
  });

  it('fetches a later receipt’s consistency proof from its own shard (--fetch)', async () => {
    const tenant = 't3';
    const second = { ...request, task: 'second' };
    const response = await askAs(tenantKeys.get(tenant) as string, second);
    expect(originOfProof(response.receipt.proof)).toBe(origins.get(tenant));
    await discloseAll(dir, second, response, `${tenant}-second.json`);
    const result = await verify(`${tenant}-second.json`, '--fetch', valve.url);
    expect(result.stdout).toContain('consistent from');
    expect(result.code).toBe(0);
  });

  it('verifies every receipt from its shard’s tiles alone, read by an independent client', async () => {
    const root = (await (await fetch(`${valve.url}/v1/trust-root`)).json()) as {
      logs: { origin: string; verifierKey: string; tiles: string }[];
    };
    // The trust root's prefixes name the deployment's public URL; this Valve listens locally.
    const local = (url: string) => `${valve.url}${new URL(url).pathname}`;
    const get = async (url: string) => {
      const res = await fetch(local(url));
      return res.ok ? new Uint8Array(await res.arrayBuffer()) : null;
    };
    for (const tenant of tenants) {
      const bundle = JSON.parse(readFileSync(join(dir, `${tenant}.json`), 'utf8')) as {
        jws: string;
        proof: string;
      };
      const log = root.logs.find((l) => l.origin === origins.get(tenant));
      if (log === undefined) throw new Error(`no ${origins.get(tenant)} in the trust root`);
      const note = await (await fetch(local(`${log.tiles}/checkpoint`))).text();
      expect((await verifyCheckpoint(note, log)).ok).toBe(true);
      const { size, root: signedRoot } = sizeAndRoot(note);
      const reader = new TileReader(log.tiles, size, get);
      await reader.checkRoot(signedRoot);
      // receipt-format.md §9.1: E = SHA-256("valve-receipt/v1/entry" || 0x00 || JWS payload bytes).
      const payload = Buffer.from(bundle.jws.split('.')[1] as string, 'base64url');
      const entry = createHash('sha256')
        .update('valve-receipt/v1/entry')
        .update(Buffer.from([0]))
        .update(payload)
        .digest();
      const index = Number(/\nindex (\d+)\n/.exec(`\n${bundle.proof}`)?.[1]);
      expect(Buffer.from(await reader.entry(index)).equals(entry)).toBe(true);
    }
  });

  it('keeps the shard in the receipt’s stored row: GET /v1/receipts/{id} proves it in its shard', async () => {
    const tenant = 't5';
    const res = await fetch(`${valve.url}/v1/receipts/${receiptIds.get(tenant)}`, {
      headers: { authorization: `Bearer ${tenantKeys.get(tenant)}` },
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { log: { origin: string }; proof: string };
    expect(body.log.origin).toBe(origins.get(tenant));
    expect(originOfProof(body.proof)).toBe(origins.get(tenant));
  });

  it('orphans no receipt when the deployment switches to single: old shards stay listed and verifiable', async () => {
    await valve.stop();
    valve = await startValve({ vars: { ...keys, LOG_SHARDS: 'single' }, persistDir: storage });
    const root = (await (await fetch(`${valve.url}/v1/trust-root`)).json()) as { logs: { origin: string }[] };
    const listed = root.logs.map((log) => log.origin);
    for (const origin of origins.values()) expect(listed).toContain(origin);
    save(dir, 'root.json', root);
    rmSync(join(dir, 'state'), { recursive: true, force: true });
    for (const tenant of tenants) expect((await verify(`${tenant}.json`, '--fetch', valve.url)).code).toBe(0);
    const shard = origins.get('t0') as string;
    const checkpoint = await fetch(`${valve.url}/v1/log/checkpoint?origin=${encodeURIComponent(shard)}`);
    expect(((await checkpoint.json()) as { origin: string }).origin).toBe(shard);
    // New receipts go to the deployment's own log again.
    const key = await keyFor('after-switch');
    expect(originOfProof((await askAs(key, request)).receipt.proof)).toBe('valve.local/log/0');
  }, 60_000);
});
