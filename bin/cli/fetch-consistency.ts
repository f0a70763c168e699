import { consistencyBodySchema } from '../../src/contracts/receipt-bodies';
import type { FetchConsistency } from '../../src/receipts/verify-held';

// `--fetch <log-url>`: a missing consistency proof is asked of the log's public read endpoint. The
// URL is the Valve that serves the log (`https://valve.example`) or its log path (`…/v1/log`). What
// comes back is only a proof: it is checked against the two signed checkpoints, never trusted.

export function consistencyUrl(logUrl: string, from: number, to: number): string {
  return `${logPath(logUrl)}/consistency?from=${from}&to=${to}`;
}

function logPath(logUrl: string): string {
  const base = logUrl.replace(/\/+$/, '');
  return base.endsWith('/v1/log') ? base : `${base}/v1/log`;
}

export function fetchConsistencyFrom(logUrl: string): FetchConsistency {
  return async (origin, from, to) => {
    // Only the log the bundle names may answer: a proof from another log (a wrong URL, a staging
    // Valve) would not verify and would be taken for a fork, so a mismatch is "could not check".
    const checkpointUrl = `${logPath(logUrl)}/checkpoint`;
    const served = await fetch(checkpointUrl, { headers: { accept: 'application/json' } });
    if (!served.ok) throw new Error(`${checkpointUrl} answered ${served.status}`);
    const servedOrigin = ((await served.json()) as { origin?: unknown }).origin;
    if (servedOrigin !== origin) {
      throw new Error(`${logUrl} serves the log ${String(servedOrigin)}, not ${origin}`);
    }
    const url = consistencyUrl(logUrl, from, to);
    const res = await fetch(url, { headers: { accept: 'application/json' } });
    if (!res.ok) throw new Error(`${url} answered ${res.status}`);
    const body = consistencyBodySchema.safeParse(await res.json());
    if (!body.success) throw new Error(`${url} did not answer a consistency proof`);
    return body.data;
  };
}
