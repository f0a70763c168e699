import type { VerifyReport } from '../../src/contracts/receipt-bodies';
import { formatReport } from '../../src/receipts/format-report';

// The report as the page shows it, built with textContent only (no HTML from the bundle is ever
// parsed): the verdict, what was disclosed, the log entry and checkpoint, each check, a fork with
// both checkpoints, and the CLI's own text and JSON.

type Child = Node | string;

function el(tag: string, attrs: Record<string, string> = {}, ...children: Child[]): HTMLElement {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
  node.append(...children);
  return node;
}

const VERDICT_TEXT = {
  verified: 'VERIFIED',
  'not verified': 'NOT VERIFIED',
  fork: 'FORK: the log shows two histories',
  'could not check': 'COULD NOT CHECK',
} as const;

function summary(report: VerifyReport): HTMLElement {
  const rows: [string, string | null][] = [
    ['Receipt', report.receiptId],
    ['Format', report.typ],
    ['Issuer', report.issuer],
    [
      'Issued at',
      report.issuedAt === null ? null : `${new Date(report.issuedAt).toISOString()} (iat ${report.issuedAt})`,
    ],
    ['Key', report.kid],
    [
      'Log',
      report.log === null
        ? null
        : `${report.log.origin}, entry ${report.log.index} of ${report.log.treeSize}`,
    ],
    ['Root', report.log?.rootHash ?? null],
    [
      'Cosigned by',
      report.log?.cosignedBy === undefined
        ? null
        : report.log.cosignedBy.length === 0
          ? 'none of the trusted witnesses'
          : report.log.cosignedBy
              .map((c) => `${c.name} (${new Date(c.timestamp * 1000).toISOString()})`)
              .join(', '),
    ],
  ];
  const dl = el('dl', { class: 'summary' });
  for (const [name, value] of rows) if (value !== null) dl.append(el('dt', {}, name), el('dd', {}, value));
  return dl;
}

function fieldsTable(report: VerifyReport): HTMLElement {
  const body = el('tbody');
  for (const f of report.fields) {
    const value = f.status === 'verified' ? el('pre', {}, JSON.stringify(f.value, null, 2)) : '';
    const cls = f.status === 'failed' ? 'fail' : f.status === 'verified' ? 'ok' : '';
    body.append(
      el(
        'tr',
        { class: cls },
        el('td', {}, el('code', {}, f.field)),
        el('td', {}, f.status),
        el('td', {}, value),
      ),
    );
  }
  const head = el(
    'thead',
    {},
    el(
      'tr',
      {},
      el('th', { scope: 'col' }, 'Field'),
      el('th', { scope: 'col' }, 'Status'),
      el('th', { scope: 'col' }, 'Disclosed value'),
    ),
  );
  return el('table', { id: 'fields' }, el('caption', { class: 'help' }, 'Disclosed fields'), head, body);
}

function checksTable(report: VerifyReport): HTMLElement {
  const body = el('tbody');
  for (const c of report.checks) {
    body.append(
      el(
        'tr',
        { class: c.ok ? 'ok' : 'fail', 'data-check': c.check },
        el('td', { class: 'mark' }, c.ok ? 'ok' : 'FAIL'),
        el('td', {}, el('code', {}, c.check)),
        el('td', {}, c.detail ?? ''),
      ),
    );
  }
  const head = el(
    'thead',
    {},
    el(
      'tr',
      {},
      el('th', { scope: 'col' }, 'Result'),
      el('th', { scope: 'col' }, 'Check'),
      el('th', { scope: 'col' }, 'Detail'),
    ),
  );
  return el('table', { id: 'checks' }, el('caption', { class: 'help' }, 'Every check, in order'), head, body);
}

type ForkEvidence = NonNullable<VerifyReport['security']>[number];

function securityBox({ problem, checkpoints, consistency }: ForkEvidence): HTMLElement {
  const box = el(
    'div',
    { class: 'security', role: 'alert', id: 'security' },
    el('h3', {}, `SECURITY ERROR: ${problem}`),
  );
  checkpoints.forEach((note, i) => {
    box.append(el('h4', {}, i === 0 ? 'Checkpoint held' : 'Checkpoint new'), el('pre', {}, note));
  });
  if (consistency !== undefined) {
    const { from, to, hashes } = consistency;
    box.append(el('h4', {}, `Consistency proof from ${from} to ${to}`), el('pre', {}, hashes.join('\n')));
  }
  return box;
}

export function renderReport(report: VerifyReport): HTMLElement {
  const slug = report.verdict.replaceAll(' ', '-');
  const root = el('div', { id: 'report-body', 'data-verdict': report.verdict });
  root.append(el('p', { class: `verdict ${slug}`, id: 'verdict' }, VERDICT_TEXT[report.verdict]));
  const failed = report.checks.filter((c) => !c.ok);
  if (failed.length > 0) {
    const list = failed.map((c) => `${c.check}${c.detail ? ` (${c.detail})` : ''}`).join('; ');
    root.append(
      el(
        'p',
        { id: 'failed-summary', class: 'error' },
        `${failed.every((c) => c.unchecked) ? 'Could not run' : 'Failed'}: ${list}`,
      ),
    );
  }
  for (const s of report.security ?? []) root.append(securityBox(s));
  root.append(summary(report));
  root.append(el('h3', {}, 'Checks'), checksTable(report));
  if (report.fields.length > 0) root.append(el('h3', {}, 'Fields'), fieldsTable(report));
  if (report.log !== null)
    root.append(el('h3', {}, 'Checkpoint'), el('pre', { id: 'checkpoint' }, report.log.checkpoint));
  root.append(
    el(
      'details',
      {},
      el('summary', {}, 'The report as valve-verify prints it'),
      el('pre', { id: 'report-text' }, formatReport(report)),
    ),
    el(
      'details',
      {},
      el('summary', {}, 'The report as JSON (valve-verify verify --json)'),
      el('pre', { id: 'report-json' }, JSON.stringify(report, null, 2)),
    ),
  );
  return root;
}

export function renderProblem(message: string): HTMLElement {
  return el(
    'p',
    { class: 'error', role: 'alert', id: 'report-body', 'data-verdict': 'could not check' },
    message,
  );
}
