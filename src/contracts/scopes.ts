/** What an API key may do: call the pipeline, read its tenant's receipts, read its tenant's usage. */
export const scopes = ['reason', 'receipts:read', 'usage:read'] as const;
export type Scope = (typeof scopes)[number];
