import { hc } from 'hono/client';
import type { AppType } from './app';

export interface ValveClientOptions {
  /** Valve's origin, e.g. `https://valve.example.com`. */
  baseUrl: string;
  /** An API key (`vk_…`), sent as `Authorization: Bearer`. */
  apiKey: string;
  /** A fetch to use instead of the global one (a service binding's, or a test's). */
  fetch?: typeof fetch;
}

/**
 * A typed client for product backends: `client.v1.reason.$post({ json })` is checked against the
 * same zod contracts the server validates with, and the answer is typed as the Reason response.
 */
export function createValveClient(options: ValveClientOptions) {
  return hc<AppType>(options.baseUrl, {
    headers: { Authorization: `Bearer ${options.apiKey}` },
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
}

export type ValveClient = ReturnType<typeof createValveClient>;
export type { CapabilityClaims } from './contracts/capability';
export type { ReasonRequest } from './contracts/reason-request';
export type { ReasonResponse } from './contracts/reason-response';
export type { TrustRoot } from './contracts/trust-root';
export type { CapabilityExpectation, CapabilityVerification } from './receipts/capability-token';
/**
 * Checks a tool call's capability token offline, against the trust root you pinned (GET /v1/trust-root):
 * a tool executor calls it before it runs a call, giving the exact arguments, the tool and its tenant,
 * and runs the call only when `ok` (docs/approvals.md).
 */
export { verifyCapability } from './receipts/capability-token';
