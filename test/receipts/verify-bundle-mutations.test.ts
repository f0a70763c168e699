import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { reasonRequestSchema } from '../../src/contracts/reason-request';
import { reasonResponseSchema } from '../../src/contracts/reason-response';
import type { DisclosureBundle, VerifyReport } from '../../src/contracts/receipt-bodies';
import { RECEIPT_FIELDS_V1 } from '../../src/contracts/receipt-field-names';
import type { TrustRoot } from '../../src/contracts/trust-root';
import { utf8 } from '../../src/encoding/utf8';
import { logOriginOf } from '../../src/log/log-settings';
import { entryHash } from '../../src/log/merkle';
import { commitAll } from '../../src/receipts/commitments';
import { buildDisclosure } from '../../src/receipts/disclose';
import { canonicalJson, type JsonValue } from '../../src/receipts/jcs';
import { signReceipt } from '../../src/receipts/jws';
import { buildReceiptBody } from '../../src/receipts/receipt-body';
import { receiptFieldValues } from '../../src/receipts/receipt-fields';
import { serviceKeysOf } from '../../src/receipts/service-keys';
import { verifyBundle } from '../../src/receipts/verify-bundle';
import { createKey, reason } from '../helpers/api';
import { flip, mutateValue, nextB64 } from '../helpers/bundle-mutations';

// receipts.md: "Every check has a test that mutates one byte of the bundle and expects failure."
// Each mutation flips one bit of one character, and the report must name the check that failed.

const salt = 'bXV0YXRpb25zLW11dGF0aW9ucy1tdXRhdGlvbnMtbXV0YXRpb25z';
const request = reasonRequestSchema.parse({
  task: 'classify',
  instructions: 'Classify the ticket as urgent or routine.',
  context: [
    { label: 'ticket', trust: 'untrusted', privacy: 'internal', content: 'Server room flooded.' },
    { label: 'log', trust: 'untrusted', privacy: 'internal', content: 'Pump 2 failed at 03:10.' },
  ],
  conversation: [
    { role: 'user', content: 'Please hurry.' },
    { role: 'assistant', content: 'On it.' },
  ],
  tools: [{ name: 'lookup', inputSchema: { type: 'object' }, annotations: { readOnly: true } }],
  output: { format: 'text' },
  modelPolicy: { prefer: 'cost', maxCostUsd: 0.5 },
  receiptSalt: salt,
});

function firstFailure(report: VerifyReport): string | undefined {
  return report.checks.find((c) => !c.ok)?.check;
}

let trustRoot: TrustRoot;
let full: DisclosureBundle;
let byKeys: DisclosureBundle;
let names: string[];
let v1: DisclosureBundle;

beforeAll(async () => {
  trustRoot = (await serviceKeysOf(env, logOriginOf(env))).trustRoot;
  const { key } = await createKey('mutations');
  // A few receipts first, so the proof has a path and a non-zero index.
  await Promise.all([1, 2, 3].map(() => reason(key, { ...request, receiptSalt: undefined })));
  const res = await reason(key, request);
  const response = reasonResponseSchema.parse(await res.json());
  full = await buildDisclosure({ request, response, salt, tenant: 'mutations' });
  names = Object.keys(full.open);
  byKeys = await buildDisclosure({ request, response, salt, fields: names, tenant: 'mutations' });
  v1 = await v1Bundle(response);
});

/** A valve-receipt/v1 receipt of the same answer, signed by the service key and logged as Valve once did. */
async function v1Bundle(response: ReturnType<typeof reasonResponseSchema.parse>): Promise<DisclosureBundle> {
  const origin = logOriginOf(env);
  const keys = await serviceKeysOf(env, origin);
  const values = receiptFieldValues(request, response);
  const rid = crypto.randomUUID();
  const cmt = await commitAll(salt, rid, values);
  const body = buildReceiptBody({ typ: 'valve-receipt/v1', rid, iss: keys.issuer, iat: Date.now(), cmt });
  const jws = await signReceipt(body, keys.receiptKey);
  const { proof } = await env.RECEIPT_LOG.getByName(origin).append(
    entryHash(utf8(canonicalJson(body as unknown as JsonValue))),
  );
  const open = Object.fromEntries(RECEIPT_FIELDS_V1.map((f) => [f, { value: values[f] ?? null }]));
  return { jws, proof, salt, open };
}

async function expectFailure(bundle: DisclosureBundle, allowed: string[]) {
  const report = await verifyBundle(bundle, trustRoot);
  expect(report.ok).toBe(false);
  expect(allowed).toContain(firstFailure(report));
}

describe('one-byte mutations of a disclosure bundle', () => {
  it('leaves the unmutated bundles verifying, every field and item opened', async () => {
    expect(names).toEqual(expect.arrayContaining(['req.tenant', 'req.context[1]', 'req.conversation[1]']));
    for (const bundle of [full, byKeys]) {
      const report = await verifyBundle(bundle, trustRoot, { tenant: 'mutations' });
      expect(report.checks.filter((c) => !c.ok)).toEqual([]);
      expect(report.fields.map((f) => f.status)).toEqual(names.map(() => 'verified'));
    }
  });

  it('fails bundle.format for an opened name no receipt has, __proto__ included', async () => {
    for (const name of ['__proto__', 'constructor', 'req.context[x]']) {
      // As JSON.parse reads a bundle file or body: "__proto__" is then an own member, not the prototype.
      const open = JSON.parse(`{${JSON.stringify(name)}: { "value": null }}`) as object;
      const report = await verifyBundle({ ...full, open: { ...full.open, ...open } }, trustRoot);
      expect(report.checks, name).toEqual([
        {
          check: 'bundle.format',
          ok: false,
          detail: `open names ${JSON.stringify(name)}, which is not a receipt field or item`,
        },
      ]);
      expect(report.verdict).toBe('not verified');
    }
  });

  it('keeps verifying a valve-receipt/v1 receipt, which has no tenant and no items', async () => {
    const report = await verifyBundle(v1, trustRoot);
    expect(report.checks.filter((c) => !c.ok)).toEqual([]);
    expect(report.typ).toBe('valve-receipt/v1');
    expect(report.fields.map((f) => f.field)).toEqual([...RECEIPT_FIELDS_V1]);
    const opened = v1.open['req.task'] as { value: unknown };
    const changed = { ...v1, open: { ...v1.open, 'req.task': { value: mutateValue(opened.value) } } };
    expect(firstFailure(await verifyBundle(changed, trustRoot))).toBe('open.req.task');
    const tenant = await verifyBundle(v1, trustRoot, { tenant: 'mutations' });
    expect(tenant.checks.find((c) => !c.ok)?.check).toBe('tenant');
  });

  const jwsParts = [
    ['header', 0, ['jws.format', 'jws.header', 'jws.kid', 'jws.signature']],
    ['payload', 1, ['jws.format', 'jws.signature']],
    ['signature', 2, ['jws.format', 'jws.signature']],
  ] as const;
  for (const [name, part, allowed] of jwsParts) {
    it(`fails on a changed byte anywhere in the JWS ${name}`, async () => {
      const segments = full.jws.split('.');
      const segment = segments[part] as string;
      const offset = segments.slice(0, part).reduce((n, s) => n + s.length + 1, 0);
      for (const at of [0, Math.floor(segment.length / 2), segment.length - 2]) {
        await expectFailure({ ...full, jws: flip(full.jws, offset + at) }, [...allowed]);
      }
    });
  }

  // Every v2 name: the twelve v1 fields, the tenant, two context items and two turns.
  const allNames = [
    ...RECEIPT_FIELDS_V1,
    'req.tenant',
    'req.context[0]',
    'req.context[1]',
    'req.conversation[0]',
    'req.conversation[1]',
  ];
  for (const field of allNames) {
    it(`fails on a changed byte in the opened value of ${field}, and in its key`, async () => {
      const opened = full.open[field] as { value: unknown };
      await expectFailure(
        { ...full, open: { ...full.open, [field]: { value: mutateValue(opened.value) } } },
        [`open.${field}`],
      );
      const keyed = byKeys.open[field] as { value: unknown; key: string };
      await expectFailure(
        { ...byKeys, open: { ...byKeys.open, [field]: { ...keyed, key: nextB64(keyed.key, 0) } } },
        [`open.${field}`],
      );
    });
  }

  it('fails every opened field on a changed byte of the salt', async () => {
    const report = await verifyBundle({ ...full, salt: flip(salt, 5) }, trustRoot);
    expect(report.ok).toBe(false);
    expect(report.checks.filter((c) => !c.ok).map((c) => c.check)).toEqual(names.map((f) => `open.${f}`));
  });

  it('fails on a changed byte in every line of the proof, the checkpoint signature included', async () => {
    const lines = full.proof.split('\n');
    expect(lines.length).toBeGreaterThan(6);
    const failures = new Set<string>();
    for (let i = 0; i < lines.length - 1; i++) {
      const line = lines[i] as string;
      const at = line.startsWith('index ') ? line.length - 1 : Math.floor(line.length / 2);
      const mutated = line === '' ? 'A' : flip(line, at);
      const proof = [...lines.slice(0, i), mutated, ...lines.slice(i + 1)].join('\n');
      const report = await verifyBundle({ ...full, proof }, trustRoot);
      expect(report.ok, `line ${i}: ${line}`).toBe(false);
      const failed = firstFailure(report) as string;
      expect(['proof.format', 'log.checkpoint', 'log.inclusion']).toContain(failed);
      failures.add(failed);
    }
    expect([...failures].sort()).toEqual(['log.checkpoint', 'log.inclusion', 'proof.format']);
  });

  it('fails a bundle whose checkpoint signature is not from the pinned log key', async () => {
    const lines = full.proof.trimEnd().split('\n');
    const signature = lines[lines.length - 1] as string;
    const proof = `${lines.slice(0, -1).join('\n')}\n${flip(signature, signature.length - 3)}\n`;
    await expectFailure({ ...full, proof }, ['log.checkpoint']);
  });
});
