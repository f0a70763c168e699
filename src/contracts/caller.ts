import type { Scope } from './scopes';

/** Who is calling, once the API key is checked. */
export interface Caller {
  keyId: string;
  tenant: string;
  scopes: Scope[];
  /** Requests per minute; null means the deployment's default. */
  rateLimitPerMinute: number | null;
}
