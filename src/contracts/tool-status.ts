import { z } from 'zod';

// How a tool call ended, on the tool turn that answers it (seed 000 `ToolStatus`, `ToolResultError`),
// and who wrote that turn: the tool, or a reviewer who rejected the call or answered in its place
// (docs/approvals.md).

export const toolStatuses = ['success', 'error', 'rejected', 'skipped', 'cancelled'] as const;
export type ToolStatus = (typeof toolStatuses)[number];

export const toolStatusSchema = z.enum(toolStatuses);

export const toolResultErrorSchema = z.strictObject({
  code: z.string().min(1).max(128),
  message: z.string().max(4096),
  retryable: z.boolean().optional(),
});
export type ToolResultError = z.infer<typeof toolResultErrorSchema>;

export const toolTurnSourceSchema = z.enum(['tool', 'reviewer']);

/** A tool's result may be cut to this many characters at most (seed `max_result_chars`). */
export const maxResultCharsSchema = z.number().int().min(0).max(10_000_000);
