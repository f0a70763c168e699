import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  committedNames,
  itemName,
  RECEIPT_FIELDS_V1,
  RECEIPT_TYP_V2,
  type ReceiptField,
} from '../../src/contracts/receipt-field-names';
import { decodeBase64Url, encodeBase64Url } from '../../src/encoding/base64';
import { bytesToHex } from '../../src/encoding/hex';
import { utf8 } from '../../src/encoding/utf8';
import {
  commitAll,
  commitField,
  deriveFieldKey,
  deriveReplayKey,
  generateReceiptSalt,
  matchesCommitment,
} from '../../src/receipts/commitments';
import { canonicalJson, type JsonValue } from '../../src/receipts/jcs';
import { openReplay, sealReplay } from '../../src/receipts/replay-seal';
import { EXPECTED_CMT as EXPECTED, RID, SALT, VALUES } from './known-answers';

const saltArb = fc.stringMatching(/^[A-Za-z0-9_-]{43,80}$/);
const ridArb = fc.uuid({ version: [4, 7] });
const fieldArb = fc.constantFrom(...RECEIPT_FIELDS_V1);
const jsonArb = fc.jsonValue().map((v) => v as unknown as JsonValue);

async function commit(salt: string, rid: string, field: ReceiptField, value: JsonValue): Promise<string> {
  return bytesToHex(await commitField(await deriveFieldKey(salt, rid, field), field, value));
}

describe('commitments', () => {
  it('lists the twelve v1 fields in the order of receipts.md', () => {
    expect(RECEIPT_FIELDS_V1).toEqual(Object.keys(EXPECTED));
  });

  it('derives the known field key for req.task', async () => {
    expect(bytesToHex(await deriveFieldKey(SALT, RID, 'req.task'))).toBe(
      'bbc5da02e8062ad6e07e6f51f06b386117182fdb5fc42949fceffce2394025d9',
    );
  });

  it('commits every field to its known value, absent fields to null', async () => {
    expect(await commitAll(SALT, RID, VALUES)).toEqual(EXPECTED);
  });

  it('commits an explicit null exactly as an absent field', async () => {
    expect((await commitAll(SALT, RID, { ...VALUES, 'res.output': null }))['res.output']).toBe(
      EXPECTED['res.output'],
    );
  });

  it('depends only on the canonical form of a value', async () => {
    const reordered = JSON.parse('[{"a":"\\u00e9","b":1.0}]') as JsonValue;
    expect((await commitAll(SALT, RID, { ...VALUES, 'req.context': reordered }))['req.context']).toBe(
      EXPECTED['req.context'],
    );
  });

  it('opens a field with its key and value, and not with another value or field', async () => {
    const key = await deriveFieldKey(SALT, RID, 'req.task');
    const commitment = decodeBase64Url(EXPECTED['req.task']) as Uint8Array;
    expect(await matchesCommitment(commitment, key, 'req.task', 'summarize')).toBe(true);
    expect(await matchesCommitment(commitment, key, 'req.task', 'summarise')).toBe(false);
    expect(await matchesCommitment(commitment, key, 'req.instructions', 'summarize')).toBe(false);
    expect(await matchesCommitment(commitment.subarray(0, 31), key, 'req.task', 'summarize')).toBe(false);
  });

  it('refuses a receipt id that is not a lowercase canonical UUID', async () => {
    await expect(deriveFieldKey(SALT, RID.toUpperCase(), 'req.task')).rejects.toThrow(TypeError);
  });

  it('changes when any character of the salt changes', async () => {
    await fc.assert(
      fc.asyncProperty(saltArb, fc.nat(), fc.constantFrom('A', 'z', '0', '-', '_'), async (salt, at, ch) => {
        const i = at % salt.length;
        fc.pre(salt[i] !== ch);
        const other = salt.slice(0, i) + ch + salt.slice(i + 1);
        expect(await commit(other, RID, 'req.task', 'x')).not.toBe(await commit(salt, RID, 'req.task', 'x'));
      }),
      { numRuns: 50 },
    );
  });

  it('changes when any byte of the receipt id changes', async () => {
    await fc.assert(
      fc.asyncProperty(ridArb, fc.nat(31), fc.integer({ min: 1, max: 15 }), async (rid, at, delta) => {
        const hexAt = [...rid.matchAll(/[0-9a-f]/g)][at]?.index as number;
        const digit = ((Number.parseInt(rid[hexAt] as string, 16) + delta) % 16).toString(16);
        const other = rid.slice(0, hexAt) + digit + rid.slice(hexAt + 1);
        expect(await commit(SALT, other, 'res.meta', 1)).not.toBe(await commit(SALT, rid, 'res.meta', 1));
      }),
      { numRuns: 50 },
    );
  });

  it('changes with the field, even for the same key material and value', async () => {
    await fc.assert(
      fc.asyncProperty(fieldArb, fieldArb, jsonArb, async (f, g, value) => {
        fc.pre(f !== g);
        expect(await commit(SALT, RID, f, value)).not.toBe(await commit(SALT, RID, g, value));
        // The field is bound in the commit message as well as in the key.
        const key = await deriveFieldKey(SALT, RID, f);
        expect(bytesToHex(await commitField(key, g, value))).not.toBe(
          bytesToHex(await commitField(key, f, value)),
        );
      }),
      { numRuns: 50 },
    );
  });

  it('changes whenever the canonical bytes of the value change', async () => {
    await fc.assert(
      fc.asyncProperty(fieldArb, jsonArb, jsonArb, async (field, a, b) => {
        fc.pre(canonicalJson(a) !== canonicalJson(b));
        expect(await commit(SALT, RID, field, a)).not.toBe(await commit(SALT, RID, field, b));
      }),
      { numRuns: 50 },
    );
  });

  it('commits v2 lists and their items, given as sent, exactly as each name on its own after a JSON round trip', async () => {
    // Items as a request or response holds them: members that are undefined, nested lists with
    // undefined items. The list's bytes are built from its items' bytes, so both must stay exact.
    const member = fc.oneof(fc.constant(undefined), fc.jsonValue());
    const itemArb = fc.dictionary(fc.string({ maxLength: 6 }), member, { maxKeys: 4 });
    const listsArb = fc.record({
      context: fc.array(itemArb, { maxLength: 4 }),
      conversation: fc.array(fc.oneof(itemArb, fc.array(member, { maxLength: 3 })), { maxLength: 3 }),
    });
    await fc.assert(
      fc.asyncProperty(saltArb, ridArb, listsArb, fc.boolean(), async (salt, rid, lists, copyAnItem) => {
        const values: Record<string, unknown> = {
          'req.context': lists.context,
          'req.conversation': lists.conversation,
          'res.meta': { finishReason: 'stop', costUsd: undefined, usage: { inputTokens: 1 } },
        };
        lists.context.forEach((item, i) => {
          values[itemName('req.context', i)] = item;
        });
        lists.conversation.forEach((turn, i) => {
          values[itemName('req.conversation', i)] = turn;
        });
        // An item given as another value than the list's element is committed as itself.
        if (copyAnItem && lists.context.length > 0) values[itemName('req.context', 0)] = { other: true };
        const names = committedNames(RECEIPT_TYP_V2, {
          'req.context': lists.context.length,
          'req.conversation': lists.conversation.length,
        });
        const cmt = await commitAll(salt, rid, values as Record<string, JsonValue>, names);
        expect(Object.keys(cmt)).toEqual(names);
        for (const name of names) {
          const sent = JSON.parse(JSON.stringify(values[name] ?? null)) as JsonValue;
          const expected = await commitField(await deriveFieldKey(salt, rid, name), name, sent);
          expect(cmt[name]).toBe(encodeBase64Url(expected));
        }
      }),
      { numRuns: 40 },
    );
  });

  it('generates 43-character base64url salts of 32 random bytes', () => {
    const salt = generateReceiptSalt();
    expect(salt).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(decodeBase64Url(salt)).toHaveLength(32);
    expect(generateReceiptSalt()).not.toBe(salt);
  });
});

describe('replay copy', () => {
  const aad = utf8('tenant-1:request-digest');
  const response = utf8('{"receiptId":"…","output":"hello"}');

  it('derives the known replay key', async () => {
    expect(bytesToHex(await deriveReplayKey(SALT, RID))).toBe(
      '09b7b8f37c95adcee56e00f97242b75ea1875709f8826e5bf2f7c4f19a2c8e29',
    );
  });

  it('opens with the same salt, id and context', async () => {
    const sealed = await sealReplay(SALT, RID, response, aad);
    expect(await openReplay(SALT, RID, sealed, aad)).toEqual({ ok: true, value: response });
  });

  it('uses a fresh IV each time', async () => {
    const a = await sealReplay(SALT, RID, response, aad);
    const b = await sealReplay(SALT, RID, response, aad);
    expect(encodeBase64Url(a)).not.toBe(encodeBase64Url(b));
  });

  it('does not open under another salt, id or context', async () => {
    const sealed = await sealReplay(SALT, RID, response, aad);
    expect((await openReplay(`${SALT}x`, RID, sealed, aad)).ok).toBe(false);
    expect((await openReplay(SALT, '0190d5a8-7b3c-7def-8123-456789abcdee', sealed, aad)).ok).toBe(false);
    expect((await openReplay(SALT, RID, sealed, utf8('tenant-2:request-digest'))).ok).toBe(false);
  });

  it('does not open when any byte of the sealed copy is altered or cut', async () => {
    const sealed = await sealReplay(SALT, RID, response, aad);
    for (let i = 0; i < sealed.length; i++) {
      const altered = sealed.slice();
      altered[i] = (altered[i] as number) ^ 0x01;
      expect((await openReplay(SALT, RID, altered, aad)).ok, `byte ${i}`).toBe(false);
    }
    expect((await openReplay(SALT, RID, sealed.slice(0, -1), aad)).ok).toBe(false);
    expect((await openReplay(SALT, RID, sealed.slice(0, 20), aad)).ok).toBe(false);
  });
});
