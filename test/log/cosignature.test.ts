import { describe, expect, it } from 'vitest';
import { hexToBytes } from '../../src/encoding/hex';
import { signCheckpoint } from '../../src/log/checkpoint';
import {
  checkWitnessPolicy,
  cosignCheckpoint,
  createCosigner,
  formatCosignerKey,
  parseCosignerKey,
  readCosignatures,
} from '../../src/log/cosignature';
import { createNoteSigner, formatVerifierKey, parseVerifierKey, splitNote } from '../../src/log/signed-note';
import { ed25519Pkcs8FromSeed } from '../../src/signing/keys';
import { LOG_CHECKPOINT_5, LOG_ORIGIN, LOG_SEED } from './known-answers';

// The example of c2sp.org/tlog-cosignature: a checkpoint with the log's signature and a cosignature
// whose timestamp is the spec's own "time 1679315147".
const SPEC_NOTE = `example.com/behind-the-sofa
20852163
CsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=

— example.com/behind-the-sofa Az3grlgtzPICa5OS8npVmf1Myq/5IZniMp+ZJurmRDeOoRDe4URYN7u5/Zhcyv2q1gGzGku9nTo+zyWE+xeMcTOAYQ8=
— witness.example.com/w1 jWbPPwAAAABkGFDLEZMHwSRaJNiIDoe9DYn/zXcrtPHeolMI5OWXEhZCB9dlrDJsX3b2oyin1nPZqhf5nNo0xUe+mbIUBkBIfZ+qnA==
`;

const seed = (byte: number) => ed25519Pkcs8FromSeed(new Uint8Array(32).fill(byte));
const witnessA = () => createCosigner('witness.test/a', seed(0xa1));
const witnessB = () => createCosigner('witness.test/b', seed(0xb2));
const textOf = (note: string) => note.slice(0, note.indexOf('\n\n') + 1);

describe('tlog-cosignature v1 (Ed25519)', () => {
  it('reads the spec example: key ID, then a big-endian timestamp of 1679315147, then 64 bytes', () => {
    const split = splitNote(SPEC_NOTE);
    expect(split.ok).toBe(true);
    if (!split.ok) return;
    const cosig = split.value.signatures[1];
    expect(cosig?.name).toBe('witness.example.com/w1');
    expect(cosig?.keyId).toBe('8d66cf3f');
    expect(cosig?.signature.length).toBe(72);
    const view = new DataView(cosig?.signature.buffer as ArrayBuffer, cosig?.signature.byteOffset, 8);
    expect(view.getBigUint64(0)).toBe(1679315147n);
  });

  it('writes a verifier key of type 0x04, which is not a log key, and a log key is not a cosigner key', async () => {
    const a = await witnessA();
    const vkey = formatCosignerKey(a.name, a.publicKey);
    expect(vkey.startsWith('witness.test/a+')).toBe(true);
    expect(parseCosignerKey(vkey).ok).toBe(true);
    expect(parseVerifierKey(vkey)).toEqual({
      ok: false,
      reason: 'verifier key is not an Ed25519 (type 0x01) key',
    });
    const logKey = formatVerifierKey(a.name, a.publicKey);
    expect(parseCosignerKey(logKey)).toEqual({
      ok: false,
      reason: 'verifier key is not an Ed25519 (type 0x04) key',
    });
  });

  it('cosigns a checkpoint and reads back who cosigned and when', async () => {
    const a = await witnessA();
    const line = await cosignCheckpoint(textOf(LOG_CHECKPOINT_5), a, 1_790_000_000);
    expect(line).toMatch(/^— witness\.test\/a [A-Za-z0-9+/]{102}==\n$/);
    const read = await readCosignatures(LOG_CHECKPOINT_5 + line, [a]);
    expect(read).toEqual({
      ok: true,
      value: {
        text: textOf(LOG_CHECKPOINT_5),
        cosignatures: [{ name: 'witness.test/a', timestamp: 1_790_000_000 }],
      },
    });
  });

  it('refuses a cosignature whose timestamp was changed, and one carried over to another tree of the same size', async () => {
    const a = await witnessA();
    const line = await cosignCheckpoint(textOf(LOG_CHECKPOINT_5), a, 1_790_000_000);
    const blob = Uint8Array.from(atob(line.trim().split(' ')[2] as string), (c) => c.charCodeAt(0));
    blob[11] = (blob[11] as number) ^ 1;
    const retimed = `— witness.test/a ${btoa(String.fromCharCode(...blob))}\n`;
    expect(await readCosignatures(LOG_CHECKPOINT_5 + retimed, [a])).toEqual({
      ok: false,
      reason: 'cosignature by witness.test/a does not verify',
    });
    const logSigner = await createNoteSigner(
      LOG_ORIGIN,
      ed25519Pkcs8FromSeed(hexToBytes(LOG_SEED) as Uint8Array),
    );
    const other = await signCheckpoint(
      { origin: LOG_ORIGIN, size: 5, root: new Uint8Array(32), extensions: [] },
      logSigner,
    );
    expect((await readCosignatures(other + line, [a])).ok).toBe(false);
  });

  it('does not take a log-style (type 0x01) signature by the same key and name as a cosignature', async () => {
    const a = await witnessA();
    const asLog = await createNoteSigner(a.name, seed(0xa1));
    const noted = await signCheckpoint(
      { origin: LOG_ORIGIN, size: 5, root: new Uint8Array(32), extensions: [] },
      asLog,
    );
    const finding = await checkWitnessPolicy(noted, {
      witnesses: [formatCosignerKey(a.name, a.publicKey)],
      quorum: 1,
    });
    expect(finding.ok).toBe(false);
    expect(finding.cosignedBy).toEqual([]);
  });

  it('checks "at least k of these witnesses" and names the ones that signed', async () => {
    const [a, b] = [await witnessA(), await witnessB()];
    const witnesses = [formatCosignerKey(a.name, a.publicKey), formatCosignerKey(b.name, b.publicKey)];
    const note = LOG_CHECKPOINT_5 + (await cosignCheckpoint(textOf(LOG_CHECKPOINT_5), b, 1_790_000_123));
    const one = await checkWitnessPolicy(note, { witnesses, quorum: 1 });
    expect(one).toEqual({
      ok: true,
      cosignedBy: [{ name: 'witness.test/b', timestamp: 1_790_000_123 }],
      detail: '1 of the 2 trusted witnesses (1 required): cosigned by witness.test/b',
    });
    const two = await checkWitnessPolicy(note, { witnesses, quorum: 2 });
    expect(two.ok).toBe(false);
    const both = note + (await cosignCheckpoint(textOf(LOG_CHECKPOINT_5), a, 1_790_000_124));
    expect((await checkWitnessPolicy(both, { witnesses, quorum: 2 })).cosignedBy.map((c) => c.name)).toEqual([
      'witness.test/b',
      'witness.test/a',
    ]);
  });
});
