import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { reasonRequestSchema } from '../../src/contracts/reason-request';
import { reasonResponseSchema } from '../../src/contracts/reason-response';
import type { DisclosureBundle, VerifyReport } from '../../src/contracts/receipt-bodies';
import { RECEIPT_FIELDS_V1 } from '../../src/contracts/receipt-field-names';
import type { TrustRoot } from '../../src/contracts/trust-root';
import { logOriginOf } from '../../src/log/receipt-log';
import { buildDisclosure } from '../../src/receipts/disclose';
import { serviceKeysOf } from '../../src/receipts/service-keys';
import { verifyBundle } from '../../src/receipts/verify-bundle';
import { createKey, reason } from '../helpers/api';

// receipts.md: "Every check has a test that mutates one byte of the bundle and expects failure."
// Each mutation flips one bit of one character, and the report must name the check that failed.

const salt = 'bXV0YXRpb25zLW11dGF0aW9ucy1tdXRhdGlvbnMtbXV0YXRpb25z';
const request = reasonRequestSchema.parse({
  task: 'classify',
  instructions: 'Classify the ticket as urgent or routine.',
  context: [{ label: 'ticket', trust: 'untrusted', privacy: 'internal', content: 'Server room flooded.' }],
  conversation: [{ role: 'user', content: 'Please hurry.' }],
  tools: [{ name: 'lookup', inputSchema: { type: 'object' }, annotations: { readOnly: true } }],
  output: { format: 'text' },
  modelPolicy: { prefer: 'cost', maxCostUsd: 0.5 },
  receiptSalt: salt,
});

function flip(text: string, at: number): string {
  return text.slice(0, at) + String.fromCharCode(text.charCodeAt(at) ^ 1) + text.slice(at + 1);
}

const B64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** One character of base64url text replaced by the next one of the alphabet: a different key. */
function nextB64(text: string, at: number): string {
  const next = B64URL[(B64URL.indexOf(text[at] as string) + 1) % 64] as string;
  return text.slice(0, at) + next + text.slice(at + 1);
}

/** The value with one byte of its JSON text changed (from the front, where digits still count), still JSON. */
function mutateValue(value: unknown): unknown {
  const text = JSON.stringify(value);
  for (let at = 0; at < text.length; at++) {
    if (!/[A-Za-z0-9]/.test(text[at] as string)) continue;
    try {
      return JSON.parse(flip(text, at));
    } catch {
      // not JSON any more; try another byte
    }
  }
  return text === '[]' ? [0] : text === 'null' ? 0 : `${text}!`;
}

function firstFailure(report: VerifyReport): string | undefined {
  return report.checks.find((c) => !c.ok)?.check;
}

let trustRoot: TrustRoot;
let full: DisclosureBundle;
let byKeys: DisclosureBundle;

beforeAll(async () => {
  trustRoot = (await serviceKeysOf(env, logOriginOf(env))).trustRoot;
  const { key } = await createKey('mutations');
  // A few receipts first, so the proof has a path and a non-zero index.
  await Promise.all([1, 2, 3].map(() => reason(key, { ...request, receiptSalt: undefined })));
  const res = await reason(key, request);
  const response = reasonResponseSchema.parse(await res.json());
  full = await buildDisclosure({ request, response, salt });
  byKeys = await buildDisclosure({ request, response, salt, fields: RECEIPT_FIELDS_V1 });
});

async function expectFailure(bundle: DisclosureBundle, allowed: string[]) {
  const report = await verifyBundle(bundle, trustRoot);
  expect(report.ok).toBe(false);
  expect(allowed).toContain(firstFailure(report));
}

describe('one-byte mutations of a disclosure bundle', () => {
  it('leaves the unmutated bundles verifying', async () => {
    expect((await verifyBundle(full, trustRoot)).ok).toBe(true);
    expect((await verifyBundle(byKeys, trustRoot)).ok).toBe(true);
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

  for (const field of RECEIPT_FIELDS_V1) {
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
    expect(report.checks.filter((c) => !c.ok).map((c) => c.check)).toEqual(
      RECEIPT_FIELDS_V1.map((f) => `open.${f}`),
    );
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
