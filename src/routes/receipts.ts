import { zValidator } from '@hono/zod-validator';
import { Hono } from 'hono';
import { rowsPending, WRITE_BEHIND_WINDOW_MS } from '../background/write-behind';
import { verifyQuerySchema } from '../contracts/receipt-bodies';
import type { AppEnv } from '../env';
import { ApiError } from '../errors';
import { completionsPending } from '../issuance/complete-claimed';
import { logOriginOf } from '../log/log-settings';
import { validationError } from '../middleware/json-body';
import { requireKey } from '../middleware/require-key';
import { verifyBundle } from '../receipts/verify-bundle';
import { findReceipt } from '../storage/receipts';
import { stubByName } from '../storage/stub-by-name';
import { trustRootOf } from './log-origins';

// A tenant's stored receipts (metadata, JWS and proof; never content), and the public verifier.

/** How often a receipt read looks again while its row is on its way: once per write-behind window. */
const rereadMs = WRITE_BEHIND_WINDOW_MS;

export const receiptRoutes = new Hono<AppEnv>()
  .post(
    '/receipts/verify',
    zValidator('query', verifyQuerySchema, (result) => {
      if (!result.success) throw validationError(result.error);
    }),
    async (c) => {
      let bundle: unknown;
      try {
        bundle = await c.req.json();
      } catch {
        throw new ApiError('request.malformed_json', 'The body is not valid JSON.');
      }
      const trustRoot = await trustRootOf(c.env);
      // `?tenant=` checks the tenant a v2 receipt commits to, as `valve-verify verify --tenant` does.
      const { tenant } = c.req.valid('query');
      const report = await verifyBundle(bundle, trustRoot, tenant === undefined ? {} : { tenant });
      const format = report.checks[0];
      if (format?.check === 'bundle.format' && !format.ok) {
        throw new ApiError(
          'receipt.invalid_bundle',
          `The disclosure bundle is not well-formed: ${format.detail}`,
          {
            details: { report },
          },
        );
      }
      return c.json(report);
    },
  )
  .get('/receipts/:receiptId', requireKey('receipts:read'), async (c) => {
    const id = c.req.param('receiptId');
    const find = () => findReceipt(c.env.DB, c.get('caller').tenant, id);
    let row = await find();
    // A receipt's row (without a caller receiptId) or its claim's completion (with one) may still be on
    // its way behind an answer of this isolate: read again on this request's own timer while it is, for
    // up to two seconds (a failed batch's retries included). Not by awaiting those writes: they are other
    // requests' I/O, and workerd cancels a request that waits only on another's as hung once the thread
    // goes idle.
    for (
      let waitedMs = 0;
      (row === null || row.state !== 'issued') &&
      waitedMs < 2_000 &&
      (rowsPending(c.env.DB) || completionsPending());
      waitedMs += rereadMs
    ) {
      await new Promise((resolve) => setTimeout(resolve, rereadMs));
      row = await find();
    }
    if (row === null || row.state !== 'issued') {
      throw new ApiError('receipt.not_found', `No receipt ${id} for this tenant.`);
    }
    // A proof at the shard's latest checkpoint, which holds every receipt logged since this one; a
    // row without a caller receiptId keeps none (the log holds what it would repeat).
    const origin = row.log_origin ?? logOriginOf(c.env);
    const proof =
      row.log_index === null ? null : await stubByName(c.env.RECEIPT_LOG, origin).proofOf(row.log_index);
    if (proof === null && row.proof === null) {
      throw new Error(`the log ${origin} holds no entry ${row.log_index} for receipt ${id}`);
    }
    return c.json({
      receiptId: row.id,
      issuedAt: row.iat ?? 0,
      kid: row.kid ?? '',
      model: { provider: row.provider ?? '', model: row.model ?? '', region: row.region ?? '' },
      costUsd: row.cost_usd ?? 0,
      log: { origin, index: row.log_index ?? 0 },
      saltGenerated: row.salt_generated === 1,
      jws: row.jws ?? '',
      proof: proof ?? row.proof ?? '',
    });
  });
