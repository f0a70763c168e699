import { describe, expect, it } from 'vitest';
import { decodeBase64 } from '../../src/encoding/base64';
import {
  createNoteSigner,
  formatVerifierKey,
  type NoteVerifier,
  openNote,
  parseVerifierKey,
  signNote,
} from '../../src/log/signed-note';
import { ed25519Pkcs8FromSeed, generateEd25519Pkcs8 } from '../../src/signing/keys';
import {
  GO_ENOCH_KEY,
  GO_NOTE,
  GO_SIGNER_KEY,
  GO_TEXT,
  GO_VERIFIER_KEY,
  PLUS_VERIFIER_KEY,
} from './known-answers';

/** Go's private key format: PRIVATE+KEY+name+hash+base64(0x01 || seed). */
function goSigner() {
  const typed = decodeBase64(GO_SIGNER_KEY.split('+').slice(4).join('+')) as Uint8Array;
  return createNoteSigner('PeterNeumann', ed25519Pkcs8FromSeed(typed.subarray(1)));
}

function verifier(vkey: string): NoteVerifier {
  const parsed = parseVerifierKey(vkey);
  if (!parsed.ok) throw new Error(parsed.reason);
  return parsed.value;
}

describe('signed notes', () => {
  it('signs the Go sumdb/note example to the exact published bytes', async () => {
    expect(await signNote(GO_TEXT, await goSigner())).toBe(GO_NOTE);
  });

  it('derives the Go verifier key from the signer', async () => {
    const signer = await goSigner();
    expect(formatVerifierKey(signer.name, signer.publicKey)).toBe(GO_VERIFIER_KEY);
  });

  it('opens the Go example under its verifier key', async () => {
    expect(await openNote(GO_NOTE, [verifier(GO_VERIFIER_KEY)])).toEqual({
      ok: true,
      value: { text: GO_TEXT, verifiedBy: ['PeterNeumann'] },
    });
  });

  it('splits a verifier key on its first two "+" only', () => {
    const parsed = verifier(PLUS_VERIFIER_KEY);
    expect(parsed.name).toBe('TEST');
    expect(formatVerifierKey(parsed.name, parsed.publicKey)).toBe(PLUS_VERIFIER_KEY);
  });

  it('rejects every truncation and every one-character change of a verifier key', () => {
    for (let i = 0; i < GO_VERIFIER_KEY.length; i++) {
      expect(parseVerifierKey(GO_VERIFIER_KEY.slice(0, i)).ok, `prefix ${i}`).toBe(false);
      expect(parseVerifierKey(GO_VERIFIER_KEY.slice(i + 1)).ok, `suffix ${i}`).toBe(false);
      const code = GO_VERIFIER_KEY.charCodeAt(i);
      const changed =
        GO_VERIFIER_KEY.slice(0, i) + String.fromCharCode(code + 1) + GO_VERIFIER_KEY.slice(i + 1);
      expect(parseVerifierKey(changed).ok, `change at ${i}`).toBe(false);
    }
  });

  it('rejects the note when its text or signature changes', async () => {
    const trusted = [verifier(GO_VERIFIER_KEY)];
    expect((await openNote(GO_NOTE.replace('cryptography', 'cryptographY'), trusted)).ok).toBe(false);
    expect((await openNote(GO_NOTE.replace('x08go', 'x08gp'), trusted)).ok).toBe(false);
    expect((await openNote(GO_NOTE.slice(0, -1), trusted)).ok).toBe(false);
    expect((await openNote(GO_NOTE.replace('\u2014', '-'), trusted)).ok).toBe(false);
    expect((await openNote(GO_NOTE.replace('\n\n', '\n\t\n'), trusted)).ok).toBe(false);
  });

  it('ignores signatures from unknown keys, but needs one from a trusted key', async () => {
    const other = await createNoteSigner('EnochRoot', await generateEd25519Pkcs8());
    const cosigned = `${GO_NOTE}${(await signNote(GO_TEXT, other)).slice(GO_TEXT.length + 1)}`;
    expect(await openNote(cosigned, [verifier(GO_VERIFIER_KEY)])).toEqual({
      ok: true,
      value: { text: GO_TEXT, verifiedBy: ['PeterNeumann'] },
    });
    // EnochRoot's published key has the same name as `other` but another key ID: unknown, so ignored.
    expect((await openNote(cosigned, [verifier(GO_ENOCH_KEY)])).ok).toBe(false);
    expect((await openNote(GO_NOTE, [])).ok).toBe(false);
  });

  it('rejects the note when a known key signed it wrongly, even beside a good signature', async () => {
    const signer = await goSigner();
    const forged = await signNote(GO_TEXT, { ...signer, privateKey: (await goSignerOther()).privateKey });
    const lines = `${GO_NOTE}${forged.slice(GO_TEXT.length + 1)}`;
    expect((await openNote(lines, [verifier(GO_VERIFIER_KEY)])).ok).toBe(false);
  });

  it('refuses to sign text without a final newline or with control characters', async () => {
    const signer = await goSigner();
    await expect(signNote('no newline', signer)).rejects.toThrow(TypeError);
    await expect(signNote('tab\there\n', signer)).rejects.toThrow(TypeError);
    await expect(createNoteSigner('has space', await generateEd25519Pkcs8())).rejects.toThrow(TypeError);
    await expect(createNoteSigner('has+plus', await generateEd25519Pkcs8())).rejects.toThrow(TypeError);
  });
});

async function goSignerOther() {
  return createNoteSigner('PeterNeumann', await generateEd25519Pkcs8());
}
