import { zValidator } from '@hono/zod-validator';
import { Hono } from 'hono';
import {
  checkpointQuerySchema,
  consistencyQuerySchema,
  entryProofQuerySchema,
  inclusionQuerySchema,
} from '../contracts/receipt-bodies';
import { encodeBase64 } from '../encoding/base64';
import type { AppEnv } from '../env';
import { ApiError } from '../errors';
import { parseCheckpoint } from '../log/checkpoint';
import { validationError } from '../middleware/json-body';
import { requestedOriginOf } from './log-origins';

// The public Merkle log: the latest signed checkpoint, inclusion and consistency proofs, and an entry's
// whole tlog-proof at the published (with witnesses, cosigned) checkpoint, of the deployment's own log
// or of the shard `?origin=` names.

async function logOf(env: Env, origin: string | undefined) {
  return env.RECEIPT_LOG.getByName(await requestedOriginOf(env, origin));
}

function outOfRange(message: string, details: Record<string, unknown>): ApiError {
  return new ApiError('log.invalid_range', message, { details });
}

const query = <
  T extends
    | typeof checkpointQuerySchema
    | typeof inclusionQuerySchema
    | typeof consistencyQuerySchema
    | typeof entryProofQuerySchema,
>(
  schema: T,
) =>
  zValidator('query', schema, (result) => {
    if (!result.success) throw validationError(result.error);
  });

export const logRoutes = new Hono<AppEnv>()
  .get('/log/checkpoint', query(checkpointQuerySchema), async (c) => {
    const note = await (await logOf(c.env, c.req.valid('query').origin)).checkpoint();
    const parsed = parseCheckpoint(note.slice(0, note.lastIndexOf('\n\n') + 1));
    if (!parsed.ok) throw new Error(`the log signed an unparsable checkpoint: ${parsed.reason}`);
    const { origin, size, root } = parsed.value;
    return c.json({ origin, treeSize: size, rootHash: encodeBase64(root), checkpoint: note });
  })
  .get('/log/inclusion', query(inclusionQuerySchema), async (c) => {
    const { index, size, origin } = c.req.valid('query');
    const proof = await (await logOf(c.env, origin)).inclusion(index, size);
    if (proof === null) {
      throw outOfRange('The index must be below the size, and the size at most the log’s.', { index, size });
    }
    return c.json({ index, treeSize: size, hashes: proof.hashes });
  })
  .get('/log/proof', query(entryProofQuerySchema), async (c) => {
    const { index, origin } = c.req.valid('query');
    const log = await logOf(c.env, origin);
    const proof = await log.proofOf(index);
    if (proof === null) {
      throw outOfRange('The index must be below the size of the log’s latest checkpoint.', { index });
    }
    const note = proof.slice(proof.indexOf('\n\n') + 2);
    const [named, size] = note.split('\n', 2);
    return c.json({ origin: named, index, treeSize: Number(size), proof });
  })
  .get('/log/consistency', query(consistencyQuerySchema), async (c) => {
    const { from, to, origin } = c.req.valid('query');
    const proof = await (await logOf(c.env, origin)).consistency(from, to);
    if (proof === null) {
      throw outOfRange('Sizes must satisfy 1 <= from <= to <= the log’s size.', { from, to });
    }
    return c.json({ from, to, hashes: proof.hashes });
  });
