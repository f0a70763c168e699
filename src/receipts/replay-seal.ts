import type { Bytes } from '../encoding/bytes';
import { type CheckResult, fail, pass } from '../encoding/check-result';
import { deriveReplayKey } from './commitments';

// The idempotency replay copy: the finished response, encrypted under a key derived from the caller's
// salt, which Valve never stores. A retry with the right salt opens it; any other salt cannot.
// Sealed form: 12-byte random IV || AES-256-GCM ciphertext and 16-byte tag. `aad` binds the copy to
// its context (say tenant and request digest), so it cannot be replayed under another.

const IV_BYTES = 12;
const TAG_BYTES = 16;

async function replayKey(salt: string, rid: string): Promise<CryptoKey> {
  const raw = await deriveReplayKey(salt, rid);
  return crypto.subtle.importKey('raw', raw, 'AES-GCM', false, ['encrypt', 'decrypt']);
}

export async function sealReplay(salt: string, rid: string, plaintext: Bytes, aad: Bytes): Promise<Bytes> {
  const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
  const key = await replayKey(salt, rid);
  const ciphertext = new Uint8Array(
    await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: aad }, key, plaintext),
  );
  const sealed = new Uint8Array(IV_BYTES + ciphertext.length);
  sealed.set(iv);
  sealed.set(ciphertext, IV_BYTES);
  return sealed;
}

/** The plaintext, or a failure when the salt, id, context or sealed bytes differ from the sealing. */
export async function openReplay(
  salt: string,
  rid: string,
  sealed: Bytes,
  aad: Bytes,
): Promise<CheckResult<Bytes>> {
  if (sealed.length < IV_BYTES + TAG_BYTES) return fail('sealed replay copy is too short');
  const key = await replayKey(salt, rid);
  try {
    const plaintext = await crypto.subtle.decrypt(
      { name: 'AES-GCM', iv: sealed.slice(0, IV_BYTES), additionalData: aad },
      key,
      sealed.slice(IV_BYTES),
    );
    return pass(new Uint8Array(plaintext));
  } catch {
    return fail('replay copy does not open under this salt and context');
  }
}
