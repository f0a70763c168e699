import { describe, expect, it } from 'vitest';
import type { ReasonRequest } from '../../src/contracts/reason-request';
import type { UnsignedResponse } from '../../src/contracts/reason-response';
import { committedNames, RECEIPT_TYP_V2 } from '../../src/contracts/receipt-field-names';
import { decodeBase64Url, encodeBase64Url } from '../../src/encoding/base64';
import { decodeUtf8 } from '../../src/encoding/utf8';
import { issueReceipt, type ReceiptIssuer } from '../../src/issuance/issue-receipt';
import { entryHash } from '../../src/log/merkle';
import { commitField, deriveFieldKey } from '../../src/receipts/commitments';
import type { JsonValue } from '../../src/receipts/jcs';
import { verifyReceiptJws } from '../../src/receipts/jws';
import { validateReceiptBody } from '../../src/receipts/receipt-body';
import { receiptValuesV2 } from '../../src/receipts/receipt-fields';
import { generateEd25519Pkcs8, importEd25519SigningKey } from '../../src/signing/keys';

// The issuer skips every check of what it has just built, so these check it from the outside: the
// body it signs passes the validator that guards every body Valve reads, and every commitment is the
// one an auditor recomputes from the value as the caller received it (after a JSON round trip).

const request: ReasonRequest = {
  task: 'summarize',
  instructions: 'Summarize the two tickets.',
  context: [
    { label: 'first', trust: 'untrusted', privacy: 'internal', content: 'The printer is on fire.' },
    { label: 'second', trust: 'trusted', privacy: 'public', content: 'é 😀 "quoted" \u2028' },
  ],
  conversation: [{ role: 'user', content: 'And the third one?' }],
  modelPolicy: { maxLatencyMs: 10_000 },
  sampling: { temperature: 0.5 },
  receiptSalt: 'c2FsdHNhbHRzYWx0c2FsdHNhbHRzYWx0c2FsdHNhbHRzYWx0',
};
const response = {
  receiptId: '3f0e2a6c-5b1d-4c8e-9a7f-0123456789ab',
  task: 'summarize',
  output: { format: 'text', text: 'Two tickets.' },
  toolCalls: [],
  finishReason: 'stop',
  model: { provider: 'sim', model: 'fast', region: 'us' },
  usage: { inputTokens: 62, outputTokens: 3, reasoningTokens: 0, cacheReadTokens: 0 },
  costUsd: 0.0000342,
  latencyMs: 12,
  decision: {
    prefer: 'cost',
    plan: [{ provider: 'sim', model: 'fast', estCostUsd: 0.00043, estLatencyMs: 2600 }],
    excluded: [],
    // Members left undefined, as the planner leaves them: the caller never sees them.
    attempts: [
      { provider: 'sim', model: 'fast', outcome: 'ok', latencyMs: 9, costUsd: 0.0000342, retry: undefined },
    ],
  },
  warnings: [],
} as UnsignedResponse;

async function issued() {
  const signingKey = await importEd25519SigningKey(await generateEd25519Pkcs8());
  const logged: Uint8Array[] = [];
  const issuer: ReceiptIssuer = {
    signingKey,
    issuer: 'https://valve.example',
    tenant: 'tenant-a',
    now: () => 1767225600123,
    appendToLog: async (entry) => {
      logged.push(entry);
      return { index: 0, proof: 'proof' };
    },
  };
  return { result: await issueReceipt(request, response, issuer), signingKey, logged };
}

describe('issueReceipt', () => {
  it('signs a body that passes the receipt body validator, with exactly the v2 names', async () => {
    const { result, signingKey, logged } = await issued();
    const payload = decodeBase64Url(result.receipt.jws.split('.')[1] ?? '') as Uint8Array;
    const body = JSON.parse(decodeUtf8(payload) ?? '');
    const checked = validateReceiptBody(body);
    expect(checked.ok).toBe(true);
    expect(Object.keys(body.cmt).sort()).toEqual(
      committedNames(RECEIPT_TYP_V2, { 'req.context': 2, 'req.conversation': 1 }).sort(),
    );
    expect(body).toMatchObject({ typ: RECEIPT_TYP_V2, rid: response.receiptId, iat: 1767225600123 });
    expect(logged).toEqual([entryHash(payload)]);
    const trusted = [{ kid: signingKey.kid, jwk: signingKey.publicJwk, validFrom: 0, validUntil: null }];
    expect((await verifyReceiptJws(result.receipt.jws, trusted)).ok).toBe(true);
  });

  it('commits every name to the value as the caller receives it in JSON', async () => {
    const { result } = await issued();
    const body = JSON.parse(
      decodeUtf8(decodeBase64Url(result.receipt.jws.split('.')[1] ?? '') ?? new Uint8Array()) ?? '',
    );
    const { names, values } = receiptValuesV2(request, response, 'tenant-a');
    const salt = request.receiptSalt as string;
    for (const name of names) {
      const sent = JSON.parse(JSON.stringify(values[name] ?? null)) as JsonValue;
      const key = await deriveFieldKey(salt, response.receiptId, name);
      expect(body.cmt[name], name).toBe(encodeBase64Url(await commitField(key, name, sent)));
    }
  });
});
