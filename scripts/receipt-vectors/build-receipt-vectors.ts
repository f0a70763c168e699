import { parseTlogProof } from '../../src/log/tlog-proof';
import { jwksOf } from '../../src/receipts/service-keys';
import { type IssuedLog, issueVectorLog } from './issue-vector-receipts';
import { KEY_NAMES, LOG_ORIGIN, seedOf } from './vector-fixtures';
import { intermediatesOf } from './vector-intermediates';
import { specsOf, type VectorSpec } from './vector-specs';
import { vectorsReadme } from './vectors-readme';

// The receipt test vectors of docs/receipt-format.md: each a folder holding what a verifier is handed
// (bundle, trust root, and the auditor's held checkpoint and consistency proof where the vector has
// them), what the bundle was built from (request, salt, response), the receipt's parts as files of
// their own (JWS, tlog-proof, checkpoint), and vector.json with the expected verdict, exit code and
// checks. Valid vectors also carry intermediates.json. Returned as file path → bytes (as text);
// scripts/generate-receipt-vectors.js writes them, and a test checks they equal the committed files.

export const VECTORS_DIR = 'test/vectors/receipts';

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

function argvOf(spec: VectorSpec): string[] {
  return [
    'verify',
    'bundle.json',
    '--trust-root',
    'trust-root.json',
    ...(spec.held === undefined ? ['--no-state'] : ['--state', '$STATE_DIR']),
    ...(spec.consistency === undefined ? [] : ['--consistency', 'consistency.json']),
    ...(spec.tenant === undefined ? [] : ['--tenant', spec.tenant]),
    '--json',
  ];
}

async function filesOf(spec: VectorSpec, log: IssuedLog): Promise<[string, string][]> {
  const { receipt, bundle } = spec;
  const proof = parseTlogProof(bundle.proof);
  if (!proof.ok) throw new TypeError(`${spec.name}: the bundle's proof does not parse`);
  const manifest = {
    name: spec.name,
    description: spec.description,
    ...(spec.tampered === undefined ? {} : { tampered: spec.tampered }),
    receiptId: receipt.rid,
    salt: receipt.salt,
    tenant: receipt.tenant,
    verify: {
      argv: argvOf(spec),
      ...(spec.held === undefined ? {} : { heldCheckpoint: 'held-checkpoint.txt', heldFor: LOG_ORIGIN }),
      ...(spec.consistency === undefined ? {} : { consistency: 'consistency.json' }),
      ...(spec.tenant === undefined ? {} : { tenant: spec.tenant }),
    },
    expected: spec.expected,
  };
  const files: [string, string][] = [
    ['vector.json', json(manifest)],
    ['request.json', json(receipt.request)],
    ['response.json', json(receipt.response)],
    ['bundle.json', json(bundle)],
    ['trust-root.json', json(spec.trustRoot)],
    ['receipt.jws', bundle.jws],
    ['proof.tlog-proof', bundle.proof],
    ['checkpoint.txt', proof.value.checkpoint],
  ];
  if (spec.held !== undefined) files.push(['held-checkpoint.txt', spec.held]);
  if (spec.consistency !== undefined) files.push(['consistency.json', json(spec.consistency)]);
  if (spec.expected.verdict === 'verified') {
    const { index } = proof.value;
    const size = Number(proof.value.checkpoint.split('\n')[1]);
    const intermediates = await intermediatesOf({
      jws: receipt.jws,
      salt: receipt.salt,
      rid: receipt.rid,
      names: receipt.names,
      values: receipt.values,
      log: {
        index,
        treeSize: size,
        path: log.honest.inclusionPath(index, size),
        root: log.honest.root(size),
      },
    });
    files.push(['intermediates.json', json(intermediates)]);
  }
  return files.map(([file, text]) => [`${spec.name}/${file}`, text]);
}

function keysFile(log: IssuedLog) {
  const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  const receiptKey = (key: IssuedLog['keys']['receipt'], name: string) => ({
    seedLabel: `valve receipt test vectors: ${name}`,
    seed: hex(seedOf(name)),
    publicKey: hex(key.publicKey),
    jwk: key.publicJwk,
    kid: key.kid,
  });
  const logKey = (key: IssuedLog['keys']['log'], name: string) => ({
    seedLabel: `valve receipt test vectors: ${name}`,
    seed: hex(seedOf(name)),
    publicKey: hex(key.publicKey),
    keyName: key.name,
    keyId: hex(key.keyId),
  });
  return {
    note: 'Test keys only: each seed is SHA-256(UTF-8 seedLabel), the 32-byte RFC 8032 private key. Never use them for anything else.',
    receiptKey: receiptKey(log.keys.receipt, KEY_NAMES.receipt),
    logKey: { ...logKey(log.keys.log, KEY_NAMES.log), verifierKey: log.trustRoot.logs[0]?.verifierKey },
    unknownReceiptKey: receiptKey(log.keys.unknownReceipt, KEY_NAMES.unknownReceipt),
    unknownLogKey: logKey(log.keys.unknownLog, KEY_NAMES.unknownLog),
  };
}

/** Every file of the vectors, by path under VECTORS_DIR, in a fixed order. */
export async function buildReceiptVectors(): Promise<Map<string, string>> {
  const log = await issueVectorLog();
  const all = await specsOf(log);
  const files = new Map<string, string>();
  files.set('README.md', vectorsReadme(all));
  files.set('keys.json', json(keysFile(log)));
  files.set('jwks.json', json(jwksOf(log.trustRoot)));
  for (const spec of all) for (const [path, text] of await filesOf(spec, log)) files.set(path, text);
  return files;
}
