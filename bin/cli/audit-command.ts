import type { AuditRecord } from '../../src/audit/audit-chain';
import { type AuditReport, verifyAuditTrail } from '../../src/audit/verify-audit-trail';
import { auditProofsSchema } from '../../src/contracts/audit-proofs';
import { escapeControlCharacters } from '../../src/encoding/escape-control-characters';
import { type ParsedArgs, UsageError } from './args';
import { readJsonFile } from './read-json';
import { readTrustRoot } from './verify-command';

/** `audit <trail.json> [--proofs <file> --trust-root <file>]`: the chain, and each record's log inclusion. */
export async function auditCommand(args: ParsedArgs): Promise<AuditReport> {
  const [trailPath] = args.positionals;
  if (trailPath === undefined) throw new UsageError('audit needs a trail file (GET /v1/admin/audit)');
  const trail = readJsonFile(trailPath, 'audit trail');
  const list = Array.isArray(trail) ? trail : (trail as { records?: unknown }).records;
  // The chain check recomputes every hash, so only the shape it reads is checked here.
  const isRecord = (r: unknown) =>
    typeof r === 'object' &&
    r !== null &&
    typeof (r as AuditRecord).seq === 'number' &&
    typeof (r as AuditRecord).hash === 'string';
  if (!Array.isArray(list) || !list.every(isRecord))
    throw new UsageError(`${trailPath} holds no audit records`);
  const records = { data: list as AuditRecord[] };
  const proofsPath = args.options.get('proofs');
  if (proofsPath === undefined) return verifyAuditTrail(records.data as AuditRecord[], undefined, undefined);
  const proofs = auditProofsSchema.safeParse(readJsonFile(proofsPath, 'audit proofs'));
  if (!proofs.success) throw new UsageError(`${proofsPath} is not a GET /v1/admin/audit/proofs answer`);
  return verifyAuditTrail(
    records.data as AuditRecord[],
    proofs.data,
    readTrustRoot(args.options.get('trust-root')),
  );
}

export function formatAuditReport(report: AuditReport): string {
  const lines = [
    `valve-verify: audit trail of ${report.records} records: ${report.ok ? 'VERIFIED' : 'NOT VERIFIED'}`,
  ];
  for (const c of report.checks)
    lines.push(`  ${c.ok ? 'ok  ' : 'FAIL'} ${c.check}${c.detail ? ` (${c.detail})` : ''}`);
  // The trail comes from the server: a detail quoting it must not repaint the auditor's terminal.
  return `${lines.map(escapeControlCharacters).join('\n')}\n`;
}
