import { z } from 'zod';
import { adminApprovalsPageSchema, adminApprovalsQuerySchema } from '../contracts/admin-approvals';
import {
  approvalListSchema,
  approvalsQuerySchema,
  decidedSchema,
  decisionBodySchema,
} from '../contracts/approvals';
import type { Operation } from './operation';

// The reviewer's operations (docs/approvals.md): the held tool calls that wait, and a decision on one;
// and the operator's read-only list of every tenant's held calls (docs/console.md).

const receiptId = '3f0e2a6c-5b1d-4c8e-9a7f-0123456789ab';
const held = {
  callId: 'call_7f3a',
  receiptId,
  tool: 'delete_files',
  args: { path: '/srv/reports/2026' },
  description:
    'delete_files is destructive and was called while untrusted context was present; review the arguments before running it.',
  allowed: ['approve', 'edit', 'reject', 'respond'] as ('approve' | 'edit' | 'reject' | 'respond')[],
  heldAt: 1767225600123,
  expiresAt: 1767312000123,
};
const capability =
  'eyJhbGciOiJFZDI1NTE5Iiwia2lkIjoiTTJrUkZ3YzdTVjdSbW1NTHlKR2ZjM0J1aXBHQmZmeXFoNk1RVzZEd3ZlQSIsInR5cCI6InZhbHZlLWFwcHJvdmFsK2p3cyJ9.eyJ2IjoxfQ.c2lnbmF0dXJl';

export const approvalOperations: Operation[] = [
  {
    method: 'get',
    path: '/v1/approvals',
    summary:
      'The held-back tool calls of the key’s tenant in one status (default `pending`: still waiting, within their window), newest first.',
    security: { kind: 'key', scope: 'approvals:write' },
    query: approvalsQuerySchema,
    status: 200,
    response: approvalListSchema,
    example: {
      response: { items: [{ ...held, status: 'pending', decidedAt: null, decidedBy: null }], next: null },
    },
  },
  {
    method: 'post',
    path: '/v1/approvals/{callId}',
    summary:
      'A reviewer’s decision on a held tool call (seed Decision: approve, edit, reject, respond), once, within its window; approve and edit answer the call with its capability token.',
    security: { kind: 'key', scope: 'approvals:write' },
    params: z.strictObject({ callId: z.string().min(1) }),
    body: decisionBodySchema,
    status: 200,
    response: decidedSchema,
    errors: [
      'approval.not_found',
      'approval.ambiguous',
      'approval.decided',
      'approval.expired',
      'approval.not_allowed',
      'approval.invalid_args',
    ],
    example: {
      params: { callId: 'call_7f3a' },
      body: { type: 'approve' },
      response: {
        approval: {
          ...held,
          status: 'approved',
          decidedAt: 1767229200456,
          decidedBy: 'key_5c1e9b7a20d4f3e6',
        },
        toolCall: { id: 'call_7f3a', name: 'delete_files', arguments: held.args, capability },
        audit: { seq: 12, hash: 'a3f1c2d4e5b60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90' },
      },
    },
  },
  {
    method: 'get',
    path: '/v1/admin/approvals',
    summary:
      'The held-back tool calls of every tenant or of `tenant` in one status (default `pending`: still waiting, within their window), newest first, with their arguments. Read only: a decision takes a reviewer’s key (`POST /v1/approvals/{callId}`). A page holds `limit` rows (at most 100, 100 when not given); when more follow, `next` is the `cursor` to send for the next page.',
    security: { kind: 'admin' },
    query: adminApprovalsQuerySchema,
    status: 200,
    response: adminApprovalsPageSchema,
    example: {
      response: {
        approvals: [{ tenant: 'acme', ...held, status: 'pending', decidedAt: null, decidedBy: null }],
        next: null,
      },
    },
  },
];
