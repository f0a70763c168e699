import { z } from 'zod';
import { queryCursor } from './list-cursor';
import { tenantMessage, tenantPattern } from './operator-bodies';
import { queryInteger, queryText } from './query-params';
import { scopes } from './scopes';

// The lists the operator's console reads (GET /v1/admin/keys, /tenants, /receipts): metadata only. A
// key is listed without its secret or its hash, a receipt without its JWS, and nothing holds content.

/** A tenant's name as a query parameter. */
export const queryTenant = () => queryText().regex(tenantPattern, tenantMessage);

/** Every list takes 1 to 1000 rows a page; 100 when `limit` is not given. */
export const maxPageRows = 1000;
export const defaultPageRows = 100;
const queryLimit = () => queryInteger(1, maxPageRows);

const epochMs = z.number().int().min(0);

export const keysQuerySchema = z.strictObject({
  tenant: queryTenant().optional(),
  limit: queryLimit().optional(),
  /** After the key created at this time with this id: keys are listed newest first. */
  cursor: queryCursor(z.tuple([epochMs, z.string().min(1).max(64)])).optional(),
});

export const keyListingSchema = z.strictObject({
  id: z.string(),
  tenant: z.string(),
  scopes: z.array(z.enum(scopes)),
  /** Requests per minute; null means the deployment's default. */
  rateLimitPerMinute: z.number().int().nullable(),
  createdAt: epochMs,
  revokedAt: epochMs.nullable(),
  /** When a request last used the key (its newest usage record); null when none has. */
  lastUsedAt: epochMs.nullable(),
});
export type KeyListing = z.infer<typeof keyListingSchema>;

export const keysPageSchema = z.strictObject({
  keys: z.array(keyListingSchema),
  next: z.string().nullable(),
});
export type KeysPage = z.infer<typeof keysPageSchema>;

export const tenantsQuerySchema = z.strictObject({
  limit: queryLimit().optional(),
  /** After this tenant: tenants are listed by name. */
  cursor: queryCursor(z.tuple([z.string().regex(tenantPattern)])).optional(),
});

export const tenantListingSchema = z.strictObject({
  tenant: z.string(),
  activeKeys: z.number().int().min(0),
  revokedKeys: z.number().int().min(0),
  /** The monthly cap in USD; null when the tenant has none. */
  capUsd: z.number().min(0).nullable(),
  /** What the tenant's usage records cost since the first day of the month (UTC). */
  spentUsd: z.number().min(0),
  /** The cap less that spend, never below 0; null without a cap. */
  remainingUsd: z.number().min(0).nullable(),
});
export type TenantListing = z.infer<typeof tenantListingSchema>;

export const tenantsPageSchema = z.strictObject({
  /** The month (UTC) that `spentUsd` covers, `YYYY-MM`. */
  month: z.string(),
  tenants: z.array(tenantListingSchema),
  next: z.string().nullable(),
});
export type TenantsPage = z.infer<typeof tenantsPageSchema>;

export const receiptsQuerySchema = z.strictObject({
  tenant: queryTenant().optional(),
  limit: queryLimit().optional(),
  /** After the receipt issued at this time to this tenant with this id: newest first. */
  cursor: queryCursor(
    z.tuple([epochMs, z.string().regex(tenantPattern), z.string().min(1).max(256)]),
  ).optional(),
});

export const receiptListingSchema = z.strictObject({
  receiptId: z.string(),
  tenant: z.string(),
  issuedAt: epochMs,
  model: z.strictObject({ provider: z.string(), model: z.string(), region: z.string() }),
  costUsd: z.number().min(0),
  /** The receipt's entry in the Merkle log; the index is null while its completion is on its way. */
  log: z.strictObject({ origin: z.string(), index: z.number().int().min(0).nullable() }),
});
export type ReceiptListing = z.infer<typeof receiptListingSchema>;

export const receiptsPageSchema = z.strictObject({
  receipts: z.array(receiptListingSchema),
  next: z.string().nullable(),
});
export type ReceiptsPage = z.infer<typeof receiptsPageSchema>;
