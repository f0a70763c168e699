import { entryProofBodySchema } from '../../src/contracts/receipt-bodies';
import type { FetchProof } from '../../src/receipts/cosigned-proof';
import { logPath } from './fetch-consistency';
import { DEFAULT_LOG_FETCH_LIMITS, fetchLogJson, type LogFetchLimits } from './fetch-log-json';

// `--fetch` with `--witness`: when the bundle's own checkpoint lacks the witnesses' cosignatures, the
// entry's proof at the log's published (cosigned) checkpoint is asked of GET /v1/log/proof. It is only
// a proof: the whole bundle is verified again with it, never trusted.

export function fetchProofFrom(
  logUrl: string,
  limits: LogFetchLimits = DEFAULT_LOG_FETCH_LIMITS,
): FetchProof {
  return async (origin, index) => {
    const url = `${logPath(logUrl)}/proof?index=${index}&origin=${encodeURIComponent(origin)}`;
    const body = entryProofBodySchema.safeParse(await fetchLogJson(url, limits));
    if (!body.success) throw new Error(`${url} did not answer an entry's proof`);
    if (body.data.origin !== origin || body.data.index !== index) {
      throw new Error(`${url} answered the proof of another entry`);
    }
    return body.data.proof;
  };
}
