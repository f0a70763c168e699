import { writeFileSync } from 'node:fs';
import { type ParsedArgs, parseArgs, UsageError } from './cli/args';
import { auditCommand, formatAuditReport } from './cli/audit-command';
import { discloseCommand } from './cli/disclose-command';
import { formatReport } from './cli/format-report';
import { verifyCommand } from './cli/verify-command';

// valve-verify: the auditor's offline verifier (receipts.md). Exit codes: 0 every check passed,
// 1 a check failed, 2 usage or input error, 3 a security error (a fork of the log).

const usage = `usage:
  valve-verify verify <bundle.json> --trust-root <root.json> [--state <dir>] [--consistency <proof.json>] [--no-state] [--json]
  valve-verify disclose --request <request.json> --response <response.json> [--salt <salt>] [--fields f1,f2] [--out <file>]
  valve-verify audit <trail.json> [--proofs <proofs.json> --trust-root <root.json>] [--json]
`;

async function run(command: string | undefined, args: ParsedArgs): Promise<number> {
  const json = args.flags.has('json');
  if (command === 'verify') {
    const report = await verifyCommand(args);
    process.stdout.write(json ? `${JSON.stringify(report, null, 2)}\n` : formatReport(report));
    return report.ok ? 0 : report.security?.length ? 3 : 1;
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
    process.stdout.write(json ? `${JSON.stringify(report, null, 2)}\n` : formatAuditReport(report));
    return report.ok ? 0 : 1;
  }
  throw new UsageError(command === undefined ? 'no command' : `unknown command ${command}`);
}

export async function main(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === 'help') {
    process.stdout.write(usage);
    return command === undefined ? 2 : 0;
  }
  try {
    return await run(command, parseArgs(rest, ['json', 'no-state']));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`valve-verify: ${error.message}\n${usage}`);
    return 2;
  }
}

process.exitCode = await main(process.argv.slice(2));
