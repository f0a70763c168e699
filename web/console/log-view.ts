import type { AuditRecord } from '../../src/audit/audit-chain';
import { verifyAuditHead } from '../../src/audit/verify-audit-head';
import type { ReceiptListing, ReceiptsPage } from '../../src/contracts/admin-lists';
import type { AuditProofs } from '../../src/contracts/audit-proofs';
import type { AuditPage } from '../../src/contracts/operator-bodies';
import type { CheckpointBody, VerifyCheck } from '../../src/contracts/receipt-bodies';
import type { TrustRoot } from '../../src/contracts/trust-root';
import { verifyCheckpoint } from '../../src/log/checkpoint';
import { adminGet, describeFailure, publicGet } from './admin-api';
import { type Child, el, emptyState, table } from './dom';
import { dateTime, usd } from './format';

// Receipts and the log: the Merkle log's size and latest checkpoint with its signature checked against
// the trust root of this Valve, whether the audit trail's chain verifies and is in the log, the latest
// administrative actions, and recent receipts' metadata with a link to the verifier page.

const RECEIPTS = 50;
const RECENT_ACTIONS = 10;

function check(ok: boolean, title: string, detail: string): HTMLElement {
  return el(
    'li',
    { class: ok ? 'ok' : 'fail', 'data-ok': String(ok) },
    el('strong', {}, `${ok ? 'Verified' : 'FAILED'}: ${title}`),
    ` — ${detail}`,
  );
}

const CHECK_TITLES: Record<string, string> = {
  'audit.chain': 'the audit trail links from genesis',
  'log.checkpoint': 'the checkpoint the audit proof leads to',
  'audit.inclusion': 'the audit trail is in the log',
};

async function auditRecords(): Promise<AuditRecord[]> {
  const records: AuditRecord[] = [];
  let after: number | null = 0;
  // The trail is read whole to check its chain; it grows only with administrative actions.
  for (let page = 0; after !== null && page < 200; page++) {
    const answer: AuditPage = await adminGet<AuditPage>(`/v1/admin/audit?after=${after}&limit=1000`, [
      'records',
      'next',
    ]);
    records.push(...(answer.records as AuditRecord[]));
    after = answer.next;
  }
  return records;
}

async function logSection(): Promise<HTMLElement> {
  const [checkpoint, trustRoot, records] = await Promise.all([
    publicGet<CheckpointBody>('/v1/log/checkpoint', ['origin', 'treeSize', 'checkpoint']),
    publicGet<TrustRoot>('/v1/trust-root', ['logs']),
    auditRecords(),
  ]);
  const pinned = trustRoot.logs.find((log) => log.origin === checkpoint.origin);
  const signed = pinned
    ? await verifyCheckpoint(checkpoint.checkpoint, pinned)
    : ({ ok: false, reason: `this Valve's trust root names no log ${checkpoint.origin}` } as const);
  const newest = records.at(-1)?.seq ?? 0;
  // The newest few records' proofs: the newest one a checkpoint already holds is the one checked.
  const proofs = await adminGet<AuditProofs>(
    `/v1/admin/audit/proofs?after=${Math.max(0, newest - 5)}&limit=5`,
    ['checkpoint', 'proofs'],
  );
  const audit = await verifyAuditHead(records, proofs, trustRoot);
  const checks: HTMLElement[] = [
    check(
      signed.ok,
      'the latest checkpoint is signed by the log key of the trust root',
      signed.ok ? `${checkpoint.origin}, size ${checkpoint.treeSize}` : signed.reason,
    ),
    ...audit.checks.map((c: VerifyCheck) => check(c.ok, CHECK_TITLES[c.check] ?? c.check, c.detail ?? '')),
  ];
  const actions: Child[][] = records
    .slice(-RECENT_ACTIONS)
    .reverse()
    .map((record) => [dateTime(record.at_ms), record.action, record.subject ?? '', detailsOf(record)]);
  return el(
    'section',
    { 'aria-labelledby': 'log-heading' },
    el('h2', { id: 'log-heading' }, 'The log'),
    el(
      'dl',
      { class: 'facts' },
      el('dt', {}, 'Log'),
      el('dd', { id: 'log-origin' }, checkpoint.origin),
      el('dt', {}, 'Entries'),
      el('dd', { id: 'log-size' }, String(checkpoint.treeSize)),
      el('dt', {}, 'Root hash'),
      el('dd', {}, el('code', {}, checkpoint.rootHash)),
      el('dt', {}, 'Audit records'),
      el('dd', { id: 'audit-count' }, String(records.length)),
    ),
    el('ul', { class: 'checks', id: 'log-checks' }, ...checks),
    el(
      'p',
      { class: 'help' },
      'Checked in this browser against the trust root this Valve serves. An auditor pins the trust root apart and checks every record with `valve-verify audit`.',
    ),
    el(
      'details',
      {},
      el('summary', {}, 'The latest checkpoint, as signed'),
      el('pre', {}, checkpoint.checkpoint),
    ),
    records.length === 0
      ? emptyState(
          'No administrative actions yet: creating or revoking a key and setting a cap are recorded here.',
        )
      : table('Latest administrative actions', ['Time', 'Action', 'Subject', 'Details'], actions, {
          id: 'audit-table',
        }),
  );
}

/** An audit record's details in a few words: the tenant, the scopes, the cap. */
function detailsOf(record: AuditRecord): string {
  const details = record.details ?? {};
  const parts: string[] = [];
  if (typeof details.tenant === 'string') parts.push(`tenant ${details.tenant}`);
  if (Array.isArray(details.scopes)) parts.push(`scopes ${details.scopes.join(', ')}`);
  if (typeof details.rateLimitPerMinute === 'number') parts.push(`${details.rateLimitPerMinute} a minute`);
  if ('monthlyCapUsd' in details)
    parts.push(
      typeof details.monthlyCapUsd === 'number' ? `cap ${usd(details.monthlyCapUsd)} a month` : 'cap removed',
    );
  return parts.join('; ');
}

function receiptRows(receipts: ReceiptListing[]): Child[][] {
  return receipts.map((r) => [
    dateTime(r.issuedAt),
    el('code', {}, r.receiptId),
    r.tenant,
    `${r.model.provider}/${r.model.model} (${r.model.region})`,
    usd(r.costUsd),
    r.log.index === null ? 'on its way' : String(r.log.index),
    el(
      'a',
      { href: `/verify#receipt=${r.receiptId}`, target: '_blank', rel: 'noopener' },
      'Verify a disclosure',
    ),
  ]);
}

export function createLogView(root: HTMLElement): { refresh(): Promise<void> } {
  const log = el('div', { 'aria-live': 'polite' }, el('p', {}, 'Checking the log…'));
  const receipts = el('div', {});
  const more = el('button', { type: 'button', hidden: '' }, 'Show more receipts');
  const status = el('p', { role: 'status', class: 'status' });
  root.replaceChildren(
    log,
    el('h2', {}, 'Recent receipts'),
    el(
      'p',
      { class: 'help' },
      'Metadata only: Valve keeps no prompt or answer. The caller holds the content and the salt; with them, a receipt is checked on the verifier page.',
    ),
    receipts,
    more,
    status,
  );
  let rows: ReceiptListing[] = [];
  let next: string | null = null;

  async function loadReceipts(cursor: string | null): Promise<void> {
    const page = await adminGet<ReceiptsPage>(
      `/v1/admin/receipts?limit=${RECEIPTS}${cursor ? `&cursor=${cursor}` : ''}`,
      ['receipts', 'next'],
    );
    rows = cursor === null ? page.receipts : [...rows, ...page.receipts];
    next = page.next;
    receipts.replaceChildren(
      rows.length === 0
        ? emptyState(
            'No receipts yet. Every answer of POST /v1/reason carries one; they are listed here as they are issued.',
          )
        : table(
            'Receipts, newest first',
            ['Issued', 'Receipt', 'Tenant', 'Model', 'Cost', 'Log entry', ''],
            receiptRows(rows),
            {
              id: 'receipts-table',
            },
          ),
    );
    more.hidden = next === null;
  }

  more.addEventListener('click', () => {
    loadReceipts(next).catch((error) => {
      status.textContent = describeFailure(error);
    });
  });

  return {
    async refresh() {
      const checked = logSection()
        .then((section) => log.replaceChildren(section))
        .catch((error) =>
          log.replaceChildren(el('p', { class: 'bad', role: 'alert' }, describeFailure(error))),
        );
      await Promise.all([checked, loadReceipts(null)]);
    },
  };
}
