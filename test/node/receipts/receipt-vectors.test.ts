import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeHeldCheckpoint } from '../../../bin/cli/checkpoint-state';
import { buildReceiptVectors, VECTORS_DIR } from '../../../scripts/receipt-vectors/build-receipt-vectors';
import type { Expected } from '../../../scripts/receipt-vectors/vector-expectations';
import { consistencyBodySchema, type VerifyReport } from '../../../src/contracts/receipt-bodies';
import { trustRootSchema } from '../../../src/contracts/trust-root';
import { parseIJson } from '../../../src/receipts/i-json';
import { verifyWithHeldCheckpoint } from '../../../src/receipts/verify-held';
import { runCli } from './run-cli';

// The receipt test vectors (test/vectors/receipts/, docs/receipt-format.md) hold: the verifier that
// valve-verify runs reaches each vector's expected verdict and checks, in-process and as the CLI
// itself, and regenerating the vectors gives the committed bytes, so they cannot drift from the code.

const dir = join(import.meta.dirname, '../../..', VECTORS_DIR);
const scratch = mkdtempSync(join(tmpdir(), 'valve-vectors-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

interface Manifest {
  name: string;
  verify: {
    argv: string[];
    tenant?: string;
    heldCheckpoint?: string;
    heldFor?: string;
    consistency?: string;
  };
  expected: Expected;
}

const vectors = readdirSync(dir, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

const read = (vector: string, file: string) => readFileSync(join(dir, vector, file), 'utf8');
function readJson(vector: string, file: string): unknown {
  const parsed = parseIJson(read(vector, file));
  if (!parsed.ok) throw new Error(`${vector}/${file} is not I-JSON`);
  return parsed.value;
}
const manifestOf = (vector: string) => readJson(vector, 'vector.json') as Manifest;

/** A report's checks as vector.json states them: name, ok, and `unchecked` only when set. */
function checksOf(report: VerifyReport) {
  return report.checks.map(({ check, ok, unchecked }) =>
    unchecked ? { check, ok, unchecked } : { check, ok },
  );
}

function filesUnder(root: string, prefix = ''): string[] {
  return readdirSync(join(root, prefix), { withFileTypes: true }).flatMap((entry) => {
    const path = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
    return entry.isDirectory() ? filesUnder(root, path) : [path];
  });
}

describe('the receipt test vectors', () => {
  it('are the vectors docs/receipt-format.md lists (a folder that lost them would pass everything)', () => {
    expect(vectors).toEqual([
      'bad-consistency-proof',
      'bundle-unknown-name',
      'checkpoint-unknown-key',
      'fork-consistency-proof',
      'fork-same-size',
      'key-retired-before-iat',
      'missing-consistency-proof',
      'payload-not-canonical',
      'proof-for-another-leaf',
      'tampered-claim',
      'tampered-signature',
      'tenant-without-key',
      'unknown-receipt-key',
      'v1-full-salt',
      'v1-opens-tenant',
      'v2-full-salt-tenant',
      'v2-later-checkpoint-consistent',
      'v2-one-context-item',
      'wrong-issuer',
      'wrong-opened-value',
      'wrong-salt',
      'wrong-tenant',
    ]);
    const verdicts = vectors.map((v) => manifestOf(v).expected.verdict);
    for (const verdict of ['verified', 'not verified', 'could not check', 'fork']) {
      expect(verdicts).toContain(verdict);
    }
  });

  it.each(vectors)(
    '%s: the verifier valve-verify runs reaches the expected verdict and checks',
    async (vector) => {
      const { verify, expected } = manifestOf(vector);
      const held = verify.heldCheckpoint === undefined ? undefined : read(vector, verify.heldCheckpoint);
      const report = await verifyWithHeldCheckpoint(
        readJson(vector, 'bundle.json'),
        trustRootSchema.parse(readJson(vector, 'trust-root.json')),
        {
          ...(verify.tenant === undefined ? {} : { tenant: verify.tenant }),
          ...(held === undefined ? {} : { memory: { read: () => held, write: () => undefined } }),
          ...(verify.consistency === undefined
            ? {}
            : { consistency: consistencyBodySchema.parse(readJson(vector, verify.consistency)) }),
        },
      );
      expect(checksOf(report)).toEqual(expected.checks);
      expect(report.verdict).toBe(expected.verdict);
      expect(report.ok).toBe(expected.verdict === 'verified');
    },
  );

  it.each(vectors)(
    '%s: `valve-verify` with the vector’s argv exits with the expected code',
    async (vector) => {
      const { verify, expected } = manifestOf(vector);
      const state = join(scratch, vector);
      if (verify.heldCheckpoint !== undefined && verify.heldFor !== undefined) {
        writeHeldCheckpoint(state, verify.heldFor, read(vector, verify.heldCheckpoint));
      }
      const argv = verify.argv.map((arg) => (arg === '$STATE_DIR' ? state : arg));
      const result = await runCli(argv, { cwd: join(dir, vector) });
      expect(result.stderr).toBe('');
      const report = JSON.parse(result.stdout) as VerifyReport;
      expect(checksOf(report)).toEqual(expected.checks);
      expect(report.verdict).toBe(expected.verdict);
      expect(result.code).toBe(expected.exitCode);
    },
  );

  it('regenerate byte for byte: scripts/generate-receipt-vectors.js would write exactly the committed files', async () => {
    const generated = await buildReceiptVectors();
    const committed = filesUnder(dir).sort();
    expect(committed).toEqual([...generated.keys()].sort());
    const differing = [...generated].filter(
      ([path, text]) => !readFileSync(join(dir, path)).equals(Buffer.from(text, 'utf8')),
    );
    expect(differing.map(([path]) => path)).toEqual([]);
  });
});
