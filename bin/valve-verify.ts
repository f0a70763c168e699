import { writeFileSync } from 'node:fs';
import {
  escapeControlCharacters,
  escapeControlCharactersInLines,
} from '../src/encoding/escape-control-characters';
import { formatReport } from '../src/receipts/format-report';
import { approvalCommand, formatApprovalReport } from './cli/approval-command';
import { type ParsedArgs, parseArgs, UsageError } from './cli/args';
import { auditCommand, formatAuditReport } from './cli/audit-command';
import { discloseCommand } from './cli/disclose-command';
import { verifyCommand } from './cli/verify-command';

// valve-verify: the auditor's verifier, offline unless told --fetch.

/** Exit codes, one per verdict; usage and unreadable input are checks that could not be run. */
export const EXIT = { verified: 0, 'not verified': 1, 'could not check': 2, fork: 3 } as const;

const usage = `usage:
  valve-verify verify <bundle.json> --trust-root <root.json> [--tenant <name>] [--state <dir> | --no-state]
                      [--consistency <proof.json> | --fetch <log-url> [--timeout <seconds>]]
                      [--witness <witness-verifier-key> ... [--witness-quorum <k>]] [--json]
  valve-verify disclose --request <request.json> --response <response.json> [--salt <salt>]
                      [--fields f1,f2] [--context 0,2] [--conversation 1] [--tenant <name>] [--out <file>]
  valve-verify audit <trail.json> [--proofs <proofs.json> --trust-root <root.json>] [--json]
  valve-verify approval <token | token-file> --trust-root <root.json> [--args <args.json>] [--tool <name>]
                      [--tenant <name>] [--at <epoch-ms>] [--json]
approval: checks a tool call's capability token offline; with --args, for exactly those arguments
--witness: a witness the auditor trusts (c2sp.org/tlog-cosignature, key type 0x04); the proof's checkpoint
  must carry cosignatures from --witness-quorum of them (default: all); the report names which signed
held checkpoints: --state, else $XDG_STATE_HOME/valve-verify, else ~/.local/state/valve-verify
--fetch: each request to the log ends after --timeout seconds (default 10) or 1 MiB of answer, and
  follows no redirect; any of these is "could not check"
exit codes: 0 verified, 1 not verified, 2 could not check (usage, unreadable input, a missing or bad proof,
  a log that would not answer), 3 fork (two signed checkpoints that cannot both be honest)
`;

/** A report as JSON for a terminal: raw C1 and bidi controls (JSON keeps them) become \u escapes. */
const printableJson = (value: unknown) =>
  `${escapeControlCharactersInLines(JSON.stringify(value, null, 2))}\n`;

async function run(command: string | undefined, args: ParsedArgs): Promise<number> {
  const json = args.flags.has('json');
  if (command === 'verify') {
    const report = await verifyCommand(args);
    process.stdout.write(json ? printableJson(report) : formatReport(report));
    return EXIT[report.verdict];
  }
  if (command === 'disclose') {
    const bundle = `${JSON.stringify(await discloseCommand(args), null, 2)}\n`;
    const out = args.options.get('out');
    if (out === undefined) process.stdout.write(bundle);
    else writeFileSync(out, bundle);
    return 0;
  }
  if (command === 'audit') {
    const report = await auditCommand(args);
    process.stdout.write(json ? printableJson(report) : formatAuditReport(report));
    return report.ok ? EXIT.verified : EXIT['not verified'];
  }
  if (command === 'approval') {
    const result = await approvalCommand(args);
    process.stdout.write(
      json ? printableJson(result) : escapeControlCharactersInLines(formatApprovalReport(result)),
    );
    return result.ok ? EXIT.verified : EXIT['not verified'];
  }
  throw new UsageError(command === undefined ? 'no command' : `unknown command ${command}`);
}

export async function main(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === 'help') {
    process.stdout.write(usage);
    return command === undefined ? EXIT['could not check'] : 0;
  }
  try {
    return await run(command, parseArgs(rest, ['json', 'no-state']));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`valve-verify: ${escapeControlCharacters(error.message)}\n${usage}`);
    return EXIT['could not check'];
  }
}

process.exitCode = await main(process.argv.slice(2));
