import type { VerifyReport } from '../contracts/receipt-bodies';
import { escapeControlCharacters } from '../encoding/escape-control-characters';

// The human-readable report of `valve-verify verify`, also shown by the browser verifier: what was
// disclosed, which checkpoint, and each check. Each line is escaped on its own: a value or a log
// server's message can carry a line break or terminal escape codes, and must not forge a line.

const mark = (ok: boolean) => (ok ? 'ok  ' : 'FAIL');

export function formatReport(report: VerifyReport): string {
  const lines: string[] = [];
  lines.push(`valve-verify: receipt ${report.receiptId ?? '(unknown)'}: ${report.verdict.toUpperCase()}`);
  if (report.typ !== null) lines.push(`  format     ${report.typ}`);
  if (report.issuer !== null) lines.push(`  issuer     ${report.issuer}`);
  if (report.issuedAt !== null) {
    lines.push(`  issued at  ${new Date(report.issuedAt).toISOString()} (iat ${report.issuedAt})`);
  }
  if (report.kid !== null) lines.push(`  key        ${report.kid}`);
  if (report.log !== null) {
    lines.push(`  log        ${report.log.origin}, entry ${report.log.index} of ${report.log.treeSize}`);
    lines.push(`  root       ${report.log.rootHash}`);
  }
  if (report.fields.length > 0) {
    lines.push('', 'Fields:');
    const width = Math.max(...report.fields.map((f) => f.field.length));
    for (const f of report.fields) {
      const shown = f.status === 'verified' ? `verified: ${JSON.stringify(f.value)}` : f.status;
      lines.push(`  ${f.field.padEnd(width)}  ${truncate(shown, 100)}`);
    }
  }
  lines.push('', 'Checks:');
  for (const c of report.checks) lines.push(`  ${mark(c.ok)} ${c.check}${c.detail ? ` (${c.detail})` : ''}`);
  for (const s of report.security ?? []) {
    lines.push('', `SECURITY ERROR: ${s.problem}`);
    s.checkpoints.forEach((note, i) => {
      lines.push(
        `  checkpoint ${i === 0 ? 'held' : 'new'}:`,
        ...note
          .trimEnd()
          .split('\n')
          .map((l) => `    ${l}`),
      );
    });
    if (s.consistency !== undefined) {
      const { from, to, hashes } = s.consistency;
      lines.push(`  consistency proof from ${from} to ${to}:`, ...hashes.map((h) => `    ${h}`));
    }
  }
  return `${lines.map(escapeControlCharacters).join('\n')}\n`;
}

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
