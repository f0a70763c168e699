import type { ConsistencyBody, VerifyReport } from '../contracts/receipt-bodies';
import type { TrustRoot } from '../contracts/trust-root';
import { compareCheckpoints } from '../log/compare-checkpoints';
import { type FetchProof, withCosignedProof } from './cosigned-proof';
import { type VerifyOptions, verdictOf, verifyBundle } from './verify-bundle';

// A bundle verified by an auditor who remembers: the bundle's checkpoint must be consistent with the
// latest one held for that log, and the larger of the two is remembered when every check passed.
// The CLI keeps its memory in files and the browser page in localStorage; both run this function,
// so they reach the same report.

export interface CheckpointMemory {
  read(origin: string): string | undefined | Promise<string | undefined>;
  write(origin: string, note: string): void | Promise<void>;
}

/** Fetches a consistency proof between two sizes of a log; throws when it cannot. */
export type FetchConsistency = (origin: string, from: number, to: number) => Promise<ConsistencyBody>;

export interface VerifyHeldOptions extends VerifyOptions {
  /** Where held checkpoints live; omitted means no memory (only the bundle is checked). */
  memory?: CheckpointMemory;
  /** A consistency proof the auditor supplies. */
  consistency?: ConsistencyBody;
  /** Asked for a missing consistency proof; omitted means offline. */
  fetchConsistency?: FetchConsistency;
  /** With a witness policy the bundle's checkpoint does not meet, asked for the cosigned proof. */
  fetchProof?: FetchProof;
}

export async function verifyWithHeldCheckpoint(
  input: unknown,
  trustRoot: TrustRoot,
  options: VerifyHeldOptions = {},
): Promise<VerifyReport> {
  const report = await withCosignedProof(
    input,
    await verifyBundle(input, trustRoot, options),
    trustRoot,
    options,
  );
  const { memory } = options;
  if (report.log === null || memory === undefined) return report;
  const pinned = trustRoot.logs.find((log) => log.origin === report.log?.origin);
  if (pinned === undefined) return report;
  const held = await memory.read(pinned.origin);
  let comparison = await compareCheckpoints(held, report.log.checkpoint, pinned, options.consistency);
  if (comparison.needs !== undefined && options.fetchConsistency !== undefined) {
    const { from, to } = comparison.needs;
    try {
      const proof = await options.fetchConsistency(pinned.origin, from, to);
      comparison = await compareCheckpoints(held, report.log.checkpoint, pinned, proof);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      comparison = {
        check: {
          check: 'log.consistency',
          ok: false,
          unchecked: true,
          detail: `could not fetch the consistency proof from ${from} to ${to}: ${reason}`,
        },
      };
    }
  }
  report.checks.push(comparison.check);
  if (comparison.fork !== undefined) report.security = [comparison.fork];
  report.verdict = verdictOf(report.checks, comparison.fork !== undefined);
  report.ok = report.verdict === 'verified';
  if (report.ok && comparison.latest !== undefined) await memory.write(pinned.origin, comparison.latest);
  return report;
}
