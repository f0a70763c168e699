import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bench, describe } from 'vitest';
import type { ReasonRequest } from '../../src/contracts/reason-request';
import type { UnsignedResponse } from '../../src/contracts/reason-response';
import { RECEIPT_FIELDS_V1 } from '../../src/contracts/receipt-field-names';
import { utf8 } from '../../src/encoding/utf8';
import { issueReceipt, type ReceiptIssuer } from '../../src/issuance/issue-receipt';
import { commitAll } from '../../src/receipts/commitments';
import { canonicalJson } from '../../src/receipts/jcs';
import { receiptFieldValues } from '../../src/receipts/receipt-fields';
import { generateEd25519Pkcs8, importEd25519SigningKey } from '../../src/signing/keys';

// Issuing a receipt per request: 14 HKDF + HMAC commitments (the v1 fields, the tenant, one context
// item) over the JCS of each value, one Ed25519 JWS, and the entry hash (the log append itself is
// measured by bench/log-appends.js, so here it answers at once). Baseline: one bare SHA-256 of the same
// field values' JSON. Read as a ratio. Run alone with
//   npx vitest bench --config bench/vitest.bench.config.ts bench/micro/issue-receipt.bench.ts --run
// (add --outputJson FILE for medians). This runs in Node; workerd's own figures for the MAC choices
// (measured by a Worker looping each one, CPU time from /proc): 29 MACs of 80-byte messages take
// ~37 µs with src/encoding/hmac-sha256.ts, ~75 µs with node:crypto createHmac, ~95 µs with
// @noble/hashes (hmac.create, clone per reuse).

const request: ReasonRequest = {
  task: 'summarize',
  instructions: 'Summarize the customer message in one sentence.',
  context: [
    {
      label: 'message',
      trust: 'untrusted',
      privacy: 'internal',
      content: 'My order #123 arrived broken. '.repeat(20),
    },
  ],
  modelPolicy: { prefer: 'cost', maxCostUsd: 0.01 },
  receiptSalt: 'c2FsdHNhbHRzYWx0c2FsdHNhbHRzYWx0c2FsdHNhbHRzYWx0',
};
const response: UnsignedResponse = {
  receiptId: '3f0e2a6c-5b1d-4c8e-9a7f-0123456789ab',
  task: 'summarize',
  output: { format: 'text', text: 'The customer’s order #123 arrived broken.' },
  toolCalls: [],
  finishReason: 'stop',
  model: { provider: 'sim', model: 'fast', region: 'us' },
  usage: { inputTokens: 262, outputTokens: 20, reasoningTokens: 0, cacheReadTokens: 0 },
  costUsd: 0.0000342,
  latencyMs: 12,
  decision: {
    prefer: 'cost',
    plan: [{ provider: 'sim', model: 'fast', estCostUsd: 0.00043, estLatencyMs: 2600 }],
    excluded: [],
    attempts: [{ provider: 'sim', model: 'fast', outcome: 'ok', latencyMs: 9, costUsd: 0.0000342 }],
  },
  warnings: [],
};

const signingKey = await importEd25519SigningKey(await generateEd25519Pkcs8());
const proof = 'c2sp.org/tlog-proof@v1\nindex 0\n\nvalve.local/log/0\n1\nAAAA\n';
const issuer: ReceiptIssuer = {
  signingKey,
  issuer: 'https://valve.local',
  tenant: 'bench',
  now: Date.now,
  appendToLog: async () => ({ index: 0, proof }),
};
const payload = utf8(JSON.stringify(receiptFieldValues(request, response)));
const options = { time: 3000, warmupTime: 500 };

describe('issue a receipt per request', () => {
  bench(
    'issueReceipt (14 commitments: v1 fields, tenant, one item; JWS Ed25519, entry hash)',
    async () => {
      await issueReceipt(request, response, issuer);
    },
    options,
  );

  bench(
    'commitAll only (the 12 v1 fields: HKDF + HMAC over JCS)',
    async () => {
      await commitAll(
        request.receiptSalt as string,
        response.receiptId,
        receiptFieldValues(request, response),
      );
    },
    options,
  );

  bench(
    'the same MACs with @noble/hashes (hmac.create, clone of the PRK per field; the earlier commitAll)',
    () => {
      const values = receiptFieldValues(request, response);
      const prk = hmac(sha256, utf8('valve-receipt/v1/kdf'), utf8(request.receiptSalt as string));
      const keyed = hmac.create(sha256, prk);
      for (const field of RECEIPT_FIELDS_V1) {
        const key = keyed
          .clone()
          .update(utf8(`valve-receipt/v1/field\0${field}\u0001`))
          .digest();
        hmac(sha256, key, utf8(`valve-receipt/v1/commit\0${field}\0${canonicalJson(values[field] ?? null)}`));
      }
    },
    options,
  );

  bench(
    'one extract, then expand + HMAC per field, WebCrypto (keys imported per field)',
    async () => {
      const values = receiptFieldValues(request, response);
      const enc = new TextEncoder();
      const saltKey = await crypto.subtle.importKey(
        'raw',
        enc.encode('valve-receipt/v1/kdf'),
        { name: 'HMAC', hash: 'SHA-256' },
        false,
        ['sign'],
      );
      const prk = await crypto.subtle.sign('HMAC', saltKey, enc.encode(request.receiptSalt as string));
      const prkKey = await crypto.subtle.importKey('raw', prk, { name: 'HMAC', hash: 'SHA-256' }, false, [
        'sign',
      ]);
      for (const field of RECEIPT_FIELDS_V1) {
        const k = await crypto.subtle.sign(
          'HMAC',
          prkKey,
          enc.encode(`valve-receipt/v1/field\0${field}\u0001`),
        );
        const fieldKey = await crypto.subtle.importKey('raw', k, { name: 'HMAC', hash: 'SHA-256' }, false, [
          'sign',
        ]);
        await crypto.subtle.sign(
          'HMAC',
          fieldKey,
          enc.encode(`valve-receipt/v1/commit\0${field}\0${canonicalJson(values[field] ?? null)}`),
        );
      }
    },
    options,
  );

  bench(
    'baseline: one SHA-256 of the same field values',
    () => {
      sha256(payload);
    },
    options,
  );
});
