import { z } from 'zod';

// The trust root an auditor pins (GET /v1/trust-root) and the JWKS (GET /.well-known/jwks.json).

export const ed25519PublicJwkSchema = z.strictObject({
  kty: z.literal('OKP'),
  crv: z.literal('Ed25519'),
  x: z.string().regex(/^[A-Za-z0-9_-]{43}$/),
  kid: z.string().optional(),
  use: z.literal('sig').optional(),
  alg: z.literal('Ed25519').optional(),
});

export const trustedReceiptKeySchema = z.strictObject({
  kid: z.string().min(1),
  jwk: ed25519PublicJwkSchema,
  /** Receipts with validFrom <= iat < validUntil (epoch ms) may be signed by this key. */
  validFrom: z.number().int().min(0),
  validUntil: z.number().int().min(0).nullable(),
});

export const trustedLogSchema = z.strictObject({
  origin: z.string().min(1),
  /** C2SP signed-note verifier key: name+hash+base64(0x01 || public key). */
  verifierKey: z.string().min(1),
  /** The URL prefix of the shard's C2SP tlog-tiles: `<prefix>/checkpoint`, `<prefix>/tile/…`. */
  tiles: z.url({ protocol: /^https?$/ }).optional(),
});

export const trustRootSchema = z.strictObject({
  /** The `iss` every receipt of this deployment carries. */
  issuer: z.string().min(1),
  receiptKeys: z.array(trustedReceiptKeySchema),
  logs: z.array(trustedLogSchema),
});
export type TrustRoot = z.infer<typeof trustRootSchema>;

export const jwksSchema = z.strictObject({ keys: z.array(ed25519PublicJwkSchema) });

/** RECEIPT_KEY_HISTORY: earlier receipt keys with their windows, for rotation. */
export const receiptKeyHistorySchema = z.array(
  z.strictObject({
    jwk: ed25519PublicJwkSchema,
    validFrom: z.number().int().min(0),
    validUntil: z.number().int().min(0),
  }),
);
