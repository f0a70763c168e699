import type { ConsistencyBody, VerifyReport } from '../contracts/receipt-bodies';
import type { TrustRoot } from '../contracts/trust-root';
import { compareCheckpoints } from '../log/compare-checkpoints';
import { type VerifyOptions, verdictOf, verifyBundle } from './verify-bundle';

// A receipt's own proof is at the checkpoint of its batch, signed before any witness saw it. When an
// auditor requires witnesses and that checkpoint lacks them, the log's proof of the same entry at its
// published (cosigned) checkpoint is asked for: it is taken only when the whole bundle verifies with it
// and the bundle's own checkpoint is consistent with the cosigned one (or the two are a fork).

/** Fetches an entry's tlog-proof at the log's published checkpoint; throws when it cannot. */
export type FetchProof = (origin: string, index: number) => Promise<string>;

export interface CosignedProofOptions extends VerifyOptions {
  fetchProof?: FetchProof;
  fetchConsistency?: (origin: string, from: number, to: number) => Promise<ConsistencyBody>;
}

function withCheck(report: VerifyReport, check: VerifyReport['checks'][number]): VerifyReport {
  const checks = [...report.checks, check];
  const verdict = verdictOf(checks, report.security !== undefined);
  return { ...report, checks, verdict, ok: verdict === 'verified' };
}

/** `report`, or the report of `input` with the log's cosigned proof when only the witnesses were missing. */
export async function withCosignedProof(
  input: unknown,
  report: VerifyReport,
  trustRoot: TrustRoot,
  options: CosignedProofOptions,
): Promise<VerifyReport> {
  const failed = report.checks.filter((c) => !c.ok);
  const { log } = report;
  if (options.fetchProof === undefined || log === null || typeof input !== 'object' || input === null)
    return report;
  if (failed.length !== 1 || failed[0]?.check !== 'log.witnesses') return report;
  const name = 'log.cosigned_proof';
  let proof: string;
  try {
    proof = await options.fetchProof(log.origin, log.index);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return withCheck(report, {
      check: name,
      ok: false,
      unchecked: true,
      detail: `could not fetch: ${reason}`,
    });
  }
  const refreshed = await verifyBundle({ ...input, proof }, trustRoot, options);
  if (!refreshed.ok || refreshed.log?.origin !== log.origin || refreshed.log.index !== log.index) {
    const why = refreshed.checks.find((c) => !c.ok)?.detail ?? 'it is for another entry';
    return withCheck(report, {
      check: name,
      ok: false,
      unchecked: true,
      detail: `the log's proof at its published checkpoint did not verify: ${why}`,
    });
  }
  const pinned = trustRoot.logs.find((l) => l.origin === log.origin);
  if (pinned === undefined) return report;
  let comparison = await compareCheckpoints(log.checkpoint, refreshed.log.checkpoint, pinned, undefined);
  if (comparison.needs !== undefined && options.fetchConsistency !== undefined) {
    const { from, to } = comparison.needs;
    try {
      const consistency = await options.fetchConsistency(log.origin, from, to);
      comparison = await compareCheckpoints(log.checkpoint, refreshed.log.checkpoint, pinned, consistency);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      comparison = {
        check: { check: 'log.consistency', ok: false, unchecked: true, detail: `could not fetch: ${reason}` },
      };
    }
  }
  if (comparison.fork !== undefined) {
    return withCheck({ ...report, security: [comparison.fork] }, comparison.check);
  }
  if (!comparison.check.ok) {
    return withCheck(report, { ...comparison.check, check: name });
  }
  return withCheck(refreshed, {
    check: name,
    ok: true,
    detail: `the bundle's checkpoint (size ${log.treeSize}) lacked the witnesses; the log's proof at size ${refreshed.log.treeSize} has them, and is consistent with it`,
  });
}
