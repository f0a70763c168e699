import type { ApiKeyRow } from './api-keys';

// A per-isolate cache of key lookups, so a busy key costs one D1 read per TTL instead of one per
// request. A revocation clears the entry at once in the isolate that handled it; other isolates
// honour it within the TTL.

export const apiKeyCacheTtlMs = 10_000;
const maxEntries = 10_000;
const entries = new Map<string, { row: ApiKeyRow | null; expiresAt: number }>();

export function cachedApiKey(keyHash: string, now: number): ApiKeyRow | null | undefined {
  const entry = entries.get(keyHash);
  if (!entry) return undefined;
  if (entry.expiresAt <= now) {
    entries.delete(keyHash);
    return undefined;
  }
  return entry.row;
}

export function cacheApiKey(keyHash: string, row: ApiKeyRow | null, now: number): void {
  if (entries.size >= maxEntries) entries.clear();
  entries.set(keyHash, { row, expiresAt: now + apiKeyCacheTtlMs });
}

/** Forgets a key by id (after it is revoked), wherever it is cached in this isolate. */
export function forgetApiKey(id: string): void {
  for (const [hash, entry] of entries) if (entry.row?.id === id) entries.delete(hash);
}
