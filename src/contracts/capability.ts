import { z } from 'zod';
import { uuidSchema } from './reason-request';

// A capability: the signed claims of one tool call Valve handed over to be run (docs/approvals.md).
// Its JWS is `valve-approval+jws`, signed by a receipt key of the trust root; a tool executor checks it
// offline (receipts/capability-token.ts) before it runs the call, for exactly these arguments.

export const CAPABILITY_JWS_TYP = 'valve-approval+jws';

/** Who let the call run: nobody had to (`none`: no approval was asked), or a reviewer's decision. */
export const capabilityDecisions = ['none', 'approve', 'edit'] as const;

export const capabilityClaimsSchema = z.strictObject({
  v: z.literal(1),
  /** The deployment's issuer, as in its trust root and receipts. */
  iss: z.string().min(1),
  tenant: z.string().min(1),
  /** The receipt of the answer that made the call. */
  rid: uuidSchema,
  /** The call's id in that answer. */
  call: z.string().min(1),
  tool: z.string().min(1),
  /** Lowercase hex SHA-256 of the RFC 8785 (JCS) bytes of the exact arguments the call may run with. */
  argsSha256: z.string().regex(/^[0-9a-f]{64}$/),
  /** The call followed untrusted input. */
  tainted: z.boolean(),
  decision: z.enum(capabilityDecisions),
  /** The id of the API key that decided, or null when no decision was asked. */
  by: z.string().min(1).nullable(),
  /** Issued and expiring at, epoch milliseconds. */
  iat: z.number().int().min(0),
  exp: z.number().int().min(0),
});
export type CapabilityClaims = z.infer<typeof capabilityClaimsSchema>;
