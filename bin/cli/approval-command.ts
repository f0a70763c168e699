import { readFileSync } from 'node:fs';
import { type CapabilityVerification, verifyCapability } from '../../src/receipts/capability-token';
import { type ParsedArgs, UsageError } from './args';
import { readJsonFile } from './read-json';
import { readTrustRoot } from './verify-command';

// `valve-verify approval <token|file> --trust-root <root.json> [--args <file>] [--tool <name>]
// [--tenant <name>] [--at <epoch ms>]`: checks a capability token offline, as a tool executor would
// before running a call, for exactly the arguments in --args.

const tokenPattern = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/** The token as given, or read from the file it names. */
function readToken(given: string | undefined): string {
  if (given === undefined) throw new UsageError('approval needs a capability token (or a file holding one)');
  if (tokenPattern.test(given)) return given;
  try {
    return readFileSync(given, 'utf8').trim();
  } catch {
    throw new UsageError(`${given} is neither a capability token nor a readable file`);
  }
}

export async function approvalCommand(args: ParsedArgs): Promise<CapabilityVerification> {
  const token = readToken(args.positionals[0]);
  const trustRoot = readTrustRoot(args.options.get('trust-root'));
  const argsPath = args.options.get('args');
  const at = args.options.get('at');
  if (at !== undefined && !/^[0-9]{1,16}$/.test(at)) throw new UsageError('--at takes epoch milliseconds');
  return verifyCapability(token, trustRoot, {
    ...(argsPath === undefined ? {} : { args: readJsonFile(argsPath, 'arguments') }),
    ...(args.options.has('tool') ? { tool: args.options.get('tool') } : {}),
    ...(args.options.has('tenant') ? { tenant: args.options.get('tenant') } : {}),
    ...(at === undefined ? {} : { now: Number(at) }),
  });
}

/** One line per check, then the verdict and, when it holds, what the token lets run. */
export function formatApprovalReport(result: CapabilityVerification): string {
  const lines = result.checks.map(
    (c) => `${c.ok ? 'ok  ' : 'FAIL'} ${c.check}${c.detail === undefined ? '' : `: ${c.detail}`}`,
  );
  if (result.ok) {
    const { claims } = result;
    lines.push(
      `verified: ${claims.tool} (call ${claims.call} of receipt ${claims.rid}) for tenant ${claims.tenant}, ` +
        `${claims.tainted ? 'tainted' : 'untainted'}, decision ${claims.decision}${claims.by === null ? '' : ` by ${claims.by}`}, ` +
        `until ${new Date(claims.exp).toISOString()}`,
    );
  } else lines.push('not verified');
  return `${lines.join('\n')}\n`;
}
