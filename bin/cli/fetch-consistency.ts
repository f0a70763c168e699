import { consistencyBodySchema } from '../../src/contracts/receipt-bodies';
import type { FetchConsistency } from '../../src/receipts/verify-held';
import {
  DEFAULT_LOG_FETCH_LIMITS,
  fetchLogJson,
  type LogFetchLimits,
  quoteServerText,
} from './fetch-log-json';

// `--fetch <log-url>`: a missing consistency proof is asked of the log's public read endpoint. The
// URL is the Valve that serves the log (`https://valve.example`) or its log path (`…/v1/log`). What
// comes back is only a proof: it is checked against the two signed checkpoints, never trusted.

/** The log's shard `origin` is named in every request, so a sharded Valve answers for the right one. */
export function consistencyUrl(logUrl: string, origin: string, from: number, to: number): string {
  return `${logPath(logUrl)}/consistency?from=${from}&to=${to}&origin=${encodeURIComponent(origin)}`;
}

export function logPath(logUrl: string): string {
  const base = logUrl.replace(/\/+$/, '');
  return base.endsWith('/v1/log') ? base : `${base}/v1/log`;
}

function originField(answer: unknown): unknown {
  return typeof answer === 'object' && answer !== null ? (answer as { origin?: unknown }).origin : undefined;
}

export function fetchConsistencyFrom(
  logUrl: string,
  limits: LogFetchLimits = DEFAULT_LOG_FETCH_LIMITS,
): FetchConsistency {
  return async (origin, from, to) => {
    // Only the log the bundle names may answer: a proof from another log (a wrong URL, a staging
    // Valve) would not verify, so a mismatch is named at once.
    const checkpointUrl = `${logPath(logUrl)}/checkpoint?origin=${encodeURIComponent(origin)}`;
    const served = originField(await fetchLogJson(checkpointUrl, limits));
    if (served !== origin) {
      const named = typeof served === 'string' ? quoteServerText(served) : 'of no origin';
      throw new Error(`${logUrl} serves the log ${named}, not ${origin}`);
    }
    const url = consistencyUrl(logUrl, origin, from, to);
    const body = consistencyBodySchema.safeParse(await fetchLogJson(url, limits));
    if (!body.success) throw new Error(`${url} did not answer a consistency proof`);
    if (body.data.from !== from || body.data.to !== to) {
      throw new Error(`${url} answered a proof from ${body.data.from} to ${body.data.to}, not the one asked`);
    }
    return body.data;
  };
}
