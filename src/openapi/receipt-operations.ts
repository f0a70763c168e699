import { auditProofsSchema } from '../contracts/audit-proofs';
import { auditQuerySchema } from '../contracts/operator-bodies';
import {
  checkpointBodySchema,
  checkpointQuerySchema,
  consistencyBodySchema,
  consistencyQuerySchema,
  disclosureBundleSchema,
  entryProofBodySchema,
  entryProofQuerySchema,
  inclusionBodySchema,
  inclusionQuerySchema,
  storedReceiptSchema,
  verifyQuerySchema,
  verifyReportSchema,
} from '../contracts/receipt-bodies';
import { jwksSchema, trustRootSchema } from '../contracts/trust-root';
import type { Operation } from './operation';

// The receipt, log and trust-root operations. Examples are shaped like real ones (a real JWS and
// proof are long; these are shortened), and validate against the schemas.

const receiptId = '3f0e2a6c-5b1d-4c8e-9a7f-0123456789ab';
const origin = 'valve.local/log/0';
const root = 'n4bQgYhMfWWaL+qgxVrQFaO/TxsrC4Is0V1sFbDwCgg=';
const checkpoint = `${origin}\n42\n${root}\n\n— ${origin} Az3grlJkqMRSrQ3tD6OHtSXaj+0Q5Y5xSbUQ6XMmp9YgQKvPwEXAMPLE8qYzBNA7eU2sYRPzKd2Cdm8v0Ox3ug5E0Q5xLZA=\n`;
const proof = `c2sp.org/tlog-proof@v1\nindex 41\nyWqC1mxl6qGmxD6cw7DI8Q6vYvZl9bH0XX9o1Uf0nWc=\n\n${checkpoint}`;
const jws =
  'eyJhbGciOiJFZDI1NTE5Iiwia2lkIjoiTTJrUkZ3YzdTVjdSbW1NTHlKR2ZjM0J1aXBHQmZmeXFoNk1RVzZEd3ZlQSIsInR5cCI6InZhbHZlLXJlY2VpcHQrandzIn0.eyJjbXQiOnt9fQ.c2lnbmF0dXJl';
const kid = 'M2kRFwc7SV7RmmMLyJGfc3BuipGBffyqh6MQW6DwveA';
const jwk = {
  kty: 'OKP' as const,
  crv: 'Ed25519' as const,
  x: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo',
};

export const exampleReceipt = { jws, proof };

export const receiptOperations: Operation[] = [
  {
    method: 'get',
    path: '/v1/receipts/{receiptId}',
    summary: 'A receipt of the key’s tenant: metadata, JWS and log proof (never content).',
    security: { kind: 'key', scope: 'receipts:read' },
    status: 200,
    response: storedReceiptSchema,
    errors: ['receipt.not_found'],
    example: {
      response: {
        receiptId,
        issuedAt: 1767225600123,
        kid,
        model: { provider: 'sim', model: 'fast', region: 'us' },
        costUsd: 0.0000342,
        log: { origin, index: 41 },
        saltGenerated: false,
        jws,
        proof,
      },
    },
  },
  {
    method: 'post',
    path: '/v1/receipts/verify',
    summary:
      'Verify a disclosure bundle against this deployment’s trust root: the same checks and report as `valve-verify`. An opened name without its `key` needs the bundle’s `salt`; a bundle that is not well-formed is a 400 `receipt.invalid_bundle`, one that fails a check a 200 saying which.',
    security: { kind: 'public' },
    query: verifyQuerySchema,
    body: disclosureBundleSchema,
    status: 200,
    errors: ['receipt.invalid_bundle'],
    response: verifyReportSchema,
    example: {
      body: { jws, proof, open: { 'res.output': { value: { format: 'text', text: 'Done.' }, key: kid } } },
      response: {
        ok: true,
        verdict: 'verified',
        typ: 'valve-receipt/v2',
        receiptId,
        issuer: 'https://valve.local',
        issuedAt: 1767225600123,
        kid,
        log: { origin, index: 41, treeSize: 42, rootHash: root, checkpoint },
        fields: [
          { field: 'res.output', status: 'verified', value: { format: 'text', text: 'Done.' } },
          { field: 'req.task', status: 'committed, not disclosed' },
        ],
        checks: [
          { check: 'jws.signature', ok: true },
          { check: 'open.res.output', ok: true, detail: 'value opens C_res.output with its key' },
          { check: 'log.inclusion', ok: true, detail: 'entry 41 of 42' },
        ],
      },
    },
  },
  {
    method: 'get',
    path: '/v1/log/checkpoint',
    summary:
      'The log’s latest signed checkpoint (C2SP tlog-checkpoint): of the shard `origin` names (one the trust root lists, else 404 `request.not_found`), or of the deployment’s own log.',
    security: { kind: 'public' },
    query: checkpointQuerySchema,
    errors: ['request.not_found'],
    status: 200,
    response: checkpointBodySchema,
    example: { response: { origin, treeSize: 42, rootHash: root, checkpoint } },
  },
  {
    method: 'get',
    path: '/v1/log/inclusion',
    summary:
      'The inclusion proof of entry `index` in the tree of `size` entries: `index` below `size`, and `size` at most the log’s size (GET /v1/log/checkpoint), else 400 `log.invalid_range`.',
    security: { kind: 'public' },
    query: inclusionQuerySchema,
    errors: ['log.invalid_range', 'request.not_found'],
    status: 200,
    response: inclusionBodySchema,
    example: {
      response: { index: 41, treeSize: 42, hashes: ['yWqC1mxl6qGmxD6cw7DI8Q6vYvZl9bH0XX9o1Uf0nWc='] },
    },
  },
  {
    method: 'get',
    path: '/v1/log/proof',
    summary:
      'Entry `index`’s C2SP tlog-proof at the log’s published checkpoint: the latest one cosigned by `LOG_WITNESS_QUORUM` witnesses that holds it, cosignatures included, or without witnesses the latest signed one; an index no checkpoint holds yet is 400 `log.invalid_range`.',
    security: { kind: 'public' },
    query: entryProofQuerySchema,
    errors: ['log.invalid_range', 'request.not_found'],
    status: 200,
    response: entryProofBodySchema,
    example: {
      response: {
        origin,
        index: 41,
        treeSize: 42,
        proof,
      },
    },
  },
  {
    method: 'get',
    path: '/v1/log/consistency',
    summary:
      'The consistency proof between tree sizes `from` and `to` (1 ≤ `from` ≤ `to` ≤ the log’s size, GET /v1/log/checkpoint; else 400 `log.invalid_range`); empty when equal.',
    security: { kind: 'public' },
    query: consistencyQuerySchema,
    errors: ['log.invalid_range', 'request.not_found'],
    status: 200,
    response: consistencyBodySchema,
    example: {
      response: { from: 40, to: 42, hashes: [root, 'yWqC1mxl6qGmxD6cw7DI8Q6vYvZl9bH0XX9o1Uf0nWc='] },
    },
  },
  {
    method: 'get',
    path: '/v1/trust-root',
    summary: 'What auditors pin: receipt keys with validity windows, and each log’s origin and verifier key.',
    security: { kind: 'public' },
    status: 200,
    response: trustRootSchema,
    example: {
      response: {
        issuer: 'https://valve.local',
        receiptKeys: [{ kid, jwk, validFrom: 0, validUntil: null }],
        logs: [{ origin, verifierKey: `${origin}+d4c1f4ea+AdHlRrRvEXAMPLEmDn5WzJ7sPjLIRtUAhDRKw8C0Ydpf` }],
      },
    },
  },
  {
    method: 'get',
    path: '/v1/admin/audit/proofs',
    summary:
      'Each audit record’s entry in the Merkle log, with its inclusion proof against the latest checkpoint.',
    security: { kind: 'admin' },
    query: auditQuerySchema,
    status: 200,
    response: auditProofsSchema,
    example: {
      response: {
        checkpoint,
        proofs: [{ seq: 1, hash: 'c'.repeat(64), index: 40, hashes: [root] }],
        next: null,
      },
    },
  },
  {
    method: 'get',
    path: '/.well-known/jwks.json',
    summary: 'Every receipt signing key ever used, as a JWKS.',
    security: { kind: 'public' },
    status: 200,
    response: jwksSchema,
    example: { response: { keys: [{ ...jwk, kid, use: 'sig', alg: 'Ed25519' }] } },
  },
];
