import { describe, expect, it } from 'vitest';
import { decodeBase64 } from '../../src/encoding/base64';
import { hexToBytes } from '../../src/encoding/hex';
import {
  type Checkpoint,
  formatCheckpoint,
  parseCheckpoint,
  signCheckpoint,
  verifyCheckpoint,
} from '../../src/log/checkpoint';
import { EMPTY_ROOT } from '../../src/log/merkle';
import { createNoteSigner, formatVerifierKey } from '../../src/log/signed-note';
import { ed25519Pkcs8FromSeed, generateEd25519Pkcs8 } from '../../src/signing/keys';
import { LOG_CHECKPOINT_5, LOG_ORIGIN, LOG_ROOT_5, LOG_SEED, LOG_VERIFIER_KEY } from './known-answers';

const logSigner = () =>
  createNoteSigner(LOG_ORIGIN, ed25519Pkcs8FromSeed(hexToBytes(LOG_SEED) as Uint8Array));
const pinned = { origin: LOG_ORIGIN, verifierKey: LOG_VERIFIER_KEY };
const checkpoint5: Checkpoint = {
  origin: LOG_ORIGIN,
  size: 5,
  root: decodeBase64(LOG_ROOT_5) as Uint8Array<ArrayBuffer>,
  extensions: [],
};

describe('checkpoints', () => {
  it('formats the three lines of the C2SP tlog-checkpoint text', () => {
    expect(formatCheckpoint(checkpoint5)).toBe(`${LOG_ORIGIN}\n5\n${LOG_ROOT_5}\n`);
    expect(formatCheckpoint({ ...checkpoint5, size: 0, root: EMPTY_ROOT })).toBe(
      `${LOG_ORIGIN}\n0\n47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=\n`,
    );
  });

  it('signs the known checkpoint to the exact known note, under the known verifier key', async () => {
    const signer = await logSigner();
    expect(formatVerifierKey(signer.name, signer.publicKey)).toBe(LOG_VERIFIER_KEY);
    expect(await signCheckpoint(checkpoint5, signer)).toBe(LOG_CHECKPOINT_5);
  });

  it('verifies the known checkpoint under the pinned origin and key', async () => {
    expect(await verifyCheckpoint(LOG_CHECKPOINT_5, pinned)).toEqual({ ok: true, value: checkpoint5 });
  });

  it('parses the example of the C2SP spec, extension lines included', () => {
    const text =
      'example.com/behind-the-sofa\n20852163\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\next one\n';
    const parsed = parseCheckpoint(text);
    expect(parsed.ok && [parsed.value.origin, parsed.value.size, parsed.value.extensions]).toEqual([
      'example.com/behind-the-sofa',
      20852163,
      ['ext one'],
    ]);
  });

  it.each([
    ['a size with a leading zero', `${LOG_ORIGIN}\n05\n${LOG_ROOT_5}\n`],
    ['a negative size', `${LOG_ORIGIN}\n-5\n${LOG_ROOT_5}\n`],
    ['a size beyond 2^53', `${LOG_ORIGIN}\n9007199254740993\n${LOG_ROOT_5}\n`],
    ['a short root', `${LOG_ORIGIN}\n5\nZG9uJ3QgY2FyZSAx\n`],
    ['a base64url root', `${LOG_ORIGIN}\n5\n${LOG_ROOT_5.replace('/', '_')}\n`],
    ['an empty origin', `\n5\n${LOG_ROOT_5}\n`],
    ['no final newline', `${LOG_ORIGIN}\n5\n${LOG_ROOT_5}`],
    ['an empty extension line', `${LOG_ORIGIN}\n5\n${LOG_ROOT_5}\n\nx\n`],
    ['two lines only', `${LOG_ORIGIN}\n5\n`],
  ])('rejects checkpoint text with %s', (_, text) => {
    expect(parseCheckpoint(text).ok).toBe(false);
  });

  it('fails when any single character of the signed checkpoint changes', async () => {
    for (let i = 0; i < LOG_CHECKPOINT_5.length; i++) {
      const code = LOG_CHECKPOINT_5.charCodeAt(i);
      const changed =
        LOG_CHECKPOINT_5.slice(0, i) + String.fromCharCode(code ^ 1) + LOG_CHECKPOINT_5.slice(i + 1);
      expect((await verifyCheckpoint(changed, pinned)).ok, `position ${i}`).toBe(false);
    }
  });

  it('rejects a checkpoint for another origin, or signed by another key', async () => {
    expect((await verifyCheckpoint(LOG_CHECKPOINT_5, { ...pinned, origin: 'valve.example/log/1' })).ok).toBe(
      false,
    );
    const impostor = await createNoteSigner(LOG_ORIGIN, await generateEd25519Pkcs8());
    const forged = await signCheckpoint(checkpoint5, impostor);
    expect((await verifyCheckpoint(forged, pinned)).ok).toBe(false);
    const own = { origin: LOG_ORIGIN, verifierKey: formatVerifierKey(impostor.name, impostor.publicKey) };
    expect((await verifyCheckpoint(forged, own)).ok).toBe(true);
    expect((await verifyCheckpoint(LOG_CHECKPOINT_5, { ...pinned, verifierKey: 'not a key' })).ok).toBe(
      false,
    );
  });

  it('refuses to sign a checkpoint whose root is not a SHA-256 hash', async () => {
    await expect(
      signCheckpoint({ ...checkpoint5, root: new Uint8Array(31) }, await logSigner()),
    ).rejects.toThrow(TypeError);
  });
});
