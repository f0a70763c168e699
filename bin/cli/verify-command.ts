import { join } from 'node:path';
import { consistencyBodySchema, type VerifyReport } from '../../src/contracts/receipt-bodies';
import { type TrustRoot, trustRootSchema } from '../../src/contracts/trust-root';
import { compareCheckpoints } from '../../src/log/compare-checkpoints';
import { verifyBundle } from '../../src/receipts/verify-bundle';
import { type ParsedArgs, UsageError } from './args';
import { readHeldCheckpoint, writeHeldCheckpoint } from './checkpoint-state';
import { readJsonFile } from './read-json';

export function readTrustRoot(path: string | undefined): TrustRoot {
  if (path === undefined)
    throw new UsageError('--trust-root <file> is required (the pinned GET /v1/trust-root)');
  const parsed = trustRootSchema.safeParse(readJsonFile(path, 'trust root'));
  if (!parsed.success) throw new UsageError(`the trust root ${path} is not a Valve trust root`);
  return parsed.data;
}

/** `verify <bundle> --trust-root <file> [--state <dir>] [--consistency <file>]`: steps 1–6 of receipts.md. */
export async function verifyCommand(args: ParsedArgs): Promise<VerifyReport> {
  const [bundlePath] = args.positionals;
  if (bundlePath === undefined) throw new UsageError('verify needs a bundle file');
  const trustRoot = readTrustRoot(args.options.get('trust-root'));
  const stateDir = args.options.get('state') ?? join(process.cwd(), '.valve-verify');
  const consistencyPath = args.options.get('consistency');
  const consistency =
    consistencyPath === undefined
      ? undefined
      : consistencyBodySchema.safeParse(readJsonFile(consistencyPath, 'consistency proof'));
  if (consistency !== undefined && !consistency.success) {
    throw new UsageError(`${consistencyPath} is not a GET /v1/log/consistency answer`);
  }
  const report = await verifyBundle(readJsonFile(bundlePath, 'bundle'), trustRoot);
  if (report.log === null || args.flags.has('no-state')) return report;
  const pinned = trustRoot.logs.find((log) => log.origin === report.log?.origin);
  if (pinned === undefined) return report;
  const held = readHeldCheckpoint(stateDir, pinned.origin);
  const comparison = await compareCheckpoints(held, report.log.checkpoint, pinned, consistency?.data);
  report.checks.push(comparison.check);
  if (comparison.fork !== undefined) report.security = [comparison.fork];
  report.ok = report.checks.every((c) => c.ok);
  if (report.ok && comparison.latest !== undefined)
    writeHeldCheckpoint(stateDir, pinned.origin, comparison.latest);
  return report;
}
