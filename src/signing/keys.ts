import { calculateJwkThumbprint } from 'jose';
import { decodeBase64, decodeBase64Url, encodeBase64, encodeBase64Url } from '../encoding/base64';
import { type Bytes, concatBytes } from '../encoding/bytes';
import { hexToBytes } from '../encoding/hex';

// Ed25519 keys through WebCrypto only, so the same code runs in workerd and in Node 20. WebCrypto's
// Ed25519 verification is strict RFC 8032 (it passes every Wycheproof case, which the tests re-check).

export interface Ed25519PublicJwk {
  kty: 'OKP';
  crv: 'Ed25519';
  x: string;
}

export interface Ed25519SigningKey {
  /** RFC 7638 thumbprint (SHA-256, base64url) of the public JWK. */
  kid: string;
  /** Non-extractable, usable only to sign. */
  privateKey: CryptoKey;
  /** The 32-byte RFC 8032 public key. */
  publicKey: Bytes;
  publicJwk: Ed25519PublicJwk;
}

// RFC 8410 PrivateKeyInfo for Ed25519, up to the 32-byte seed.
const PKCS8_SEED_PREFIX = hexToBytes('302e020100300506032b657004220420') as Bytes;

/** Wraps a 32-byte RFC 8032 private key (seed) as PKCS#8 DER. */
export function ed25519Pkcs8FromSeed(seed: Uint8Array): Bytes {
  if (seed.length !== 32) throw new TypeError('an Ed25519 seed is 32 bytes');
  return concatBytes(PKCS8_SEED_PREFIX, seed);
}

export function jwkThumbprint(jwk: Ed25519PublicJwk): Promise<string> {
  return calculateJwkThumbprint(jwk, 'sha256');
}

export function publicJwkFromRaw(publicKey: Uint8Array): Ed25519PublicJwk {
  return { kty: 'OKP', crv: 'Ed25519', x: encodeBase64Url(publicKey) };
}

/**
 * Imports a PKCS#8 Ed25519 private key (DER bytes, or base64 as in RECEIPT_SIGNING_KEY) and derives its
 * public key and kid. A malformed key is a configuration error and throws a TypeError.
 */
export async function importEd25519SigningKey(pkcs8: string | Uint8Array): Promise<Ed25519SigningKey> {
  const der = typeof pkcs8 === 'string' ? decodeBase64(pkcs8.trim()) : new Uint8Array(pkcs8);
  if (der === null) throw new TypeError('the signing key is not base64 PKCS#8');
  let jwk: JsonWebKey;
  let privateKey: CryptoKey;
  try {
    const extractable = await crypto.subtle.importKey('pkcs8', der, 'Ed25519', true, ['sign']);
    jwk = (await crypto.subtle.exportKey('jwk', extractable)) as JsonWebKey;
    privateKey = await crypto.subtle.importKey('pkcs8', der, 'Ed25519', false, ['sign']);
  } catch {
    throw new TypeError('the signing key is not an Ed25519 PKCS#8 private key');
  }
  const publicKey = decodeBase64Url(jwk.x ?? '');
  if (publicKey === null || publicKey.length !== 32) throw new TypeError('the signing key has no public key');
  const publicJwk = publicJwkFromRaw(publicKey);
  return { kid: await jwkThumbprint(publicJwk), privateKey, publicKey, publicJwk };
}

/** A fresh Ed25519 private key as base64 PKCS#8, the form RECEIPT_SIGNING_KEY and LOG_SIGNING_KEY take. */
export async function generateEd25519Pkcs8(): Promise<string> {
  const pair = (await crypto.subtle.generateKey('Ed25519', true, ['sign', 'verify'])) as CryptoKeyPair;
  return encodeBase64(
    new Uint8Array((await crypto.subtle.exportKey('pkcs8', pair.privateKey)) as ArrayBuffer),
  );
}

export async function signEd25519(privateKey: CryptoKey, message: Bytes): Promise<Bytes> {
  return new Uint8Array(await crypto.subtle.sign('Ed25519', privateKey, message));
}

/** Strict RFC 8032 verification; any malformed key or signature is simply not valid. */
export async function verifyEd25519(publicKey: Bytes, message: Bytes, signature: Bytes): Promise<boolean> {
  if (publicKey.length !== 32 || signature.length !== 64) return false;
  try {
    const key = await crypto.subtle.importKey('raw', publicKey, 'Ed25519', false, ['verify']);
    return await crypto.subtle.verify('Ed25519', key, signature, message);
  } catch {
    return false;
  }
}
