import { consistencyBodySchema, type VerifyReport } from '../../src/contracts/receipt-bodies';
import { type TrustRoot, trustRootSchema } from '../../src/contracts/trust-root';
import { parseCosignerKey, type WitnessPolicy } from '../../src/log/cosignature';
import { verifyWithHeldCheckpoint } from '../../src/receipts/verify-held';
import { type ParsedArgs, UsageError } from './args';
import { defaultStateDir, fileMemory } from './checkpoint-state';
import { fetchConsistencyFrom } from './fetch-consistency';
import { DEFAULT_LOG_FETCH_LIMITS, type LogFetchLimits } from './fetch-log-json';
import { fetchProofFrom } from './fetch-proof';
import { readJsonFile } from './read-json';

export function readTrustRoot(path: string | undefined): TrustRoot {
  if (path === undefined)
    throw new UsageError('--trust-root <file> is required (the pinned GET /v1/trust-root)');
  const parsed = trustRootSchema.safeParse(readJsonFile(path, 'trust root'));
  if (!parsed.success) throw new UsageError(`the trust root ${path} is not a Valve trust root`);
  return parsed.data;
}

/** `--timeout <seconds>`: the deadline of each request to the log; at most an hour. */
function fetchLimitsOf(args: ParsedArgs): LogFetchLimits {
  const text = args.options.get('timeout');
  if (text === undefined) return DEFAULT_LOG_FETCH_LIMITS;
  const seconds = Number(text);
  if (!/^[0-9]+(\.[0-9]+)?$/.test(text) || seconds <= 0 || seconds > 3600) {
    throw new UsageError(
      `--timeout takes seconds for each request to the log, above 0 and at most 3600, not ${text}`,
    );
  }
  return { ...DEFAULT_LOG_FETCH_LIMITS, timeoutMs: seconds * 1000 };
}

/** `--witness <verifier key>` (repeatable) and `--witness-quorum <k>` (default: all of them). */
function witnessPolicyOf(args: ParsedArgs): WitnessPolicy | undefined {
  const witnesses = args.repeated.get('witness') ?? [];
  const quorumText = args.options.get('witness-quorum');
  if (witnesses.length === 0) {
    if (quorumText !== undefined) throw new UsageError('--witness-quorum needs at least one --witness');
    return undefined;
  }
  for (const vkey of witnesses) {
    const parsed = parseCosignerKey(vkey);
    if (!parsed.ok) throw new UsageError(`--witness ${vkey}: ${parsed.reason}`);
  }
  const quorum = quorumText === undefined ? witnesses.length : Number(quorumText);
  if (!/^[1-9][0-9]*$/.test(quorumText ?? '1') || quorum > witnesses.length) {
    throw new UsageError(
      `--witness-quorum is 1 to the ${witnesses.length} witnesses given, not ${quorumText}`,
    );
  }
  return { witnesses, quorum };
}

/**
 * `verify <bundle> --trust-root <file> [--state <dir>] [--consistency <file>] [--fetch <log-url>
 * [--timeout <seconds>]] [--tenant <name>] [--witness <vkey> ... [--witness-quorum <k>]]`: the bundle,
 * then consistency with the checkpoint held for its log.
 */
export async function verifyCommand(args: ParsedArgs): Promise<VerifyReport> {
  const [bundlePath] = args.positionals;
  if (bundlePath === undefined) throw new UsageError('verify needs a bundle file');
  const trustRoot = readTrustRoot(args.options.get('trust-root'));
  const stateDir = args.options.get('state') ?? defaultStateDir();
  const consistencyPath = args.options.get('consistency');
  const consistency =
    consistencyPath === undefined
      ? undefined
      : consistencyBodySchema.safeParse(readJsonFile(consistencyPath, 'consistency proof'));
  if (consistency !== undefined && !consistency.success) {
    throw new UsageError(`${consistencyPath} is not a GET /v1/log/consistency answer`);
  }
  const logUrl = args.options.get('fetch');
  if (logUrl !== undefined && !/^https?:\/\//.test(logUrl)) {
    throw new UsageError(`--fetch needs an http(s) URL of the log, not ${logUrl}`);
  }
  const limits = fetchLimitsOf(args);
  return verifyWithHeldCheckpoint(readJsonFile(bundlePath, 'bundle'), trustRoot, {
    tenant: args.options.get('tenant'),
    witnesses: witnessPolicyOf(args),
    memory: args.flags.has('no-state') ? undefined : fileMemory(stateDir),
    consistency: consistency?.data,
    fetchConsistency: logUrl === undefined ? undefined : fetchConsistencyFrom(logUrl, limits),
    fetchProof: logUrl === undefined ? undefined : fetchProofFrom(logUrl, limits),
  });
}
