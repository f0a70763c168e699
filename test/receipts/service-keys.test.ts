import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { RECEIPT_FIELDS_V1 } from '../../src/contracts/receipt-field-names';
import { signReceipt, verifyReceiptJws } from '../../src/receipts/jws';
import { buildReceiptBody } from '../../src/receipts/receipt-body';
import { jwksOf, serviceKeysOf } from '../../src/receipts/service-keys';
import { generateEd25519Pkcs8, importEd25519SigningKey } from '../../src/signing/keys';

const cmt = Object.fromEntries(RECEIPT_FIELDS_V1.map((f) => [f, 'A'.repeat(43)])) as Parameters<
  typeof buildReceiptBody
>[0]['cmt'];

describe('the trust root after a key rotation', () => {
  it('lists the earlier key with its window and the current key from the window’s end', async () => {
    const old = await importEd25519SigningKey(await generateEd25519Pkcs8());
    const history = JSON.stringify([{ jwk: old.publicJwk, validFrom: 1000, validUntil: 5000 }]);
    const keys = await serviceKeysOf({ ...env, RECEIPT_KEY_HISTORY: history }, 'rotation.test/log/0');
    expect(keys.trustRoot.receiptKeys).toEqual([
      { kid: old.kid, jwk: old.publicJwk, validFrom: 1000, validUntil: 5000 },
      { kid: keys.receiptKey.kid, jwk: keys.receiptKey.publicJwk, validFrom: 5000, validUntil: null },
    ]);
    expect(jwksOf(keys.trustRoot).keys.map((k) => k.kid)).toEqual([old.kid, keys.receiptKey.kid]);

    const signed = (iat: number) =>
      signReceipt(
        buildReceiptBody({ typ: 'valve-receipt/v1', rid: crypto.randomUUID(), iss: keys.issuer, iat, cmt }),
        old,
      );
    expect((await verifyReceiptJws(await signed(4999), keys.trustRoot.receiptKeys)).ok).toBe(true);
    const late = await verifyReceiptJws(await signed(5000), keys.trustRoot.receiptKeys);
    expect(late.checks.at(-1)).toMatchObject({ check: 'jws.key-validity', ok: false });
  });

  it('names the log with its origin and a C2SP verifier key of that name', async () => {
    const keys = await serviceKeysOf(env, 'valve.example/log/7');
    expect(keys.trustRoot.logs).toEqual([
      {
        origin: 'valve.example/log/7',
        verifierKey: expect.stringMatching(/^valve\.example\/log\/7\+[0-9a-f]{8}\+/),
      },
    ]);
  });
});
