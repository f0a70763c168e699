import { consistencyBodySchema } from '../../src/contracts/receipt-bodies';
import type { FetchConsistency } from '../../src/receipts/verify-held';

// `--fetch <log-url>`: a missing consistency proof is asked of the log's public read endpoint. The
// URL is the Valve that serves the log (`https://valve.example`) or its log path (`…/v1/log`). What
// comes back is only a proof: it is checked against the two signed checkpoints, never trusted.

export function consistencyUrl(logUrl: string, from: number, to: number): string {
  const base = logUrl.replace(/\/+$/, '');
  const path = base.endsWith('/v1/log') ? base : `${base}/v1/log`;
  return `${path}/consistency?from=${from}&to=${to}`;
}

export function fetchConsistencyFrom(logUrl: string): FetchConsistency {
  return async (_origin, from, to) => {
    const url = consistencyUrl(logUrl, from, to);
    const res = await fetch(url, { headers: { accept: 'application/json' } });
    if (!res.ok) throw new Error(`${url} answered ${res.status}`);
    const body = consistencyBodySchema.safeParse(await res.json());
    if (!body.success) throw new Error(`${url} did not answer a consistency proof`);
    return body.data;
  };
}
