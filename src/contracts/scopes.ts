/**
 * What an API key may do: call the pipeline, read its tenant's receipts, read its tenant's usage, and
 * decide its tenant's held-back tool calls (a reviewer's scope, never an agent's: docs/approvals.md).
 */
export const scopes = ['reason', 'receipts:read', 'usage:read', 'approvals:write'] as const;
export type Scope = (typeof scopes)[number];
