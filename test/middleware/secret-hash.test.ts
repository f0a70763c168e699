import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/middleware/secret-hash';

// API keys are stored as this hash: it must be SHA-256 exactly, or no stored key would match again.

async function webCryptoHex(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  return [...digest].map((b) => b.toString(16).padStart(2, '0')).join('');
}

describe('sha256Hex', () => {
  it('answers the FIPS 180-2 known answer for "abc"', () => {
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('agrees with WebCrypto on keys of every length around the block edges, and on non-ASCII text', async () => {
    const texts = [
      '',
      'vk_rat66TscoGf8_76StwgAaOG67kHvUzJD0wOOrgReUOo',
      ...[55, 56, 63, 64, 65, 119, 120, 128].map((n) => 'k'.repeat(n)),
      'clé-ключ-鍵-🔑',
    ];
    for (const text of texts) expect(sha256Hex(text), text).toBe(await webCryptoHex(text));
  });
});
