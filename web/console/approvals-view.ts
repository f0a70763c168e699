import type { AdminApproval, AdminApprovalsPage } from '../../src/contracts/admin-approvals';
import { adminGet, describeFailure } from './admin-api';
import { el, emptyState, table } from './dom';
import { dateTime } from './format';

// Approvals: the tool calls Valve held back that wait for a tenant's reviewer, every tenant's or one's
// (GET /v1/admin/approvals). Read only: the admin token cannot decide, a reviewer's key does. The
// arguments are content a model wrote after untrusted input, so they are shown as text in a <pre>,
// never parsed as HTML.

const PAGE = 100;

/** The held arguments as indented JSON text. */
function argsText(args: AdminApproval['args']): HTMLElement {
  return el('pre', { class: 'args' }, JSON.stringify(args, null, 2));
}

export interface ApprovalsView {
  refresh(): Promise<void>;
}

export function createApprovalsView(root: HTMLElement): ApprovalsView {
  const filter = el('input', {
    type: 'text',
    id: 'approvals-tenant',
    autocomplete: 'off',
    spellcheck: 'false',
  });
  const list = el('div', { 'aria-live': 'polite' });
  const more = el('button', { type: 'button', hidden: '' }, 'Show more held calls');
  const status = el('p', { role: 'status', class: 'status' });
  const show = el('button', { type: 'button', id: 'approvals-filter' }, 'Show');
  root.replaceChildren(
    el('h2', {}, 'Pending approvals'),
    el(
      'p',
      { class: 'help' },
      'Tool calls Valve held back because the model made them after untrusted input, to a tool that can change things, and that wait for a decision within their window. This view only shows them: a tenant’s reviewer decides, with a key of that tenant that has the approvals:write scope, through POST /v1/approvals/{callId} (docs/approvals.md); the admin token cannot. Unlike the other views, it shows content: each call’s arguments, as plain text.',
    ),
    el('label', { for: 'approvals-tenant' }, 'Show the held calls of one tenant (empty: every tenant)'),
    el('p', { class: 'row' }, filter, show),
    list,
    more,
    status,
  );

  let rows: AdminApproval[] = [];
  let next: string | null = null;
  let tenant = '';

  function draw(): void {
    if (rows.length === 0) {
      list.replaceChildren(
        emptyState(
          tenant === ''
            ? 'No tool call waits for a reviewer.'
            : `No tool call of ${tenant} waits for a reviewer.`,
        ),
      );
    } else {
      list.replaceChildren(
        table(
          tenant === ''
            ? 'Held calls of every tenant, newest first'
            : `Held calls of ${tenant}, newest first`,
          [
            'Tenant',
            'Tool',
            'Call id',
            'Receipt id',
            'Held',
            'Window closes',
            'Decisions allowed',
            'Arguments',
          ],
          rows.map((row) => [
            row.tenant,
            el('code', {}, row.tool),
            el('code', {}, row.callId),
            el('code', {}, row.receiptId),
            dateTime(row.heldAt),
            dateTime(row.expiresAt),
            row.allowed.join(', '),
            argsText(row.args),
          ]),
          { id: 'approvals-table' },
        ),
      );
    }
    more.hidden = next === null;
  }

  async function load(cursor: string | null): Promise<void> {
    const query = [
      'status=pending',
      `limit=${PAGE}`,
      tenant && `tenant=${encodeURIComponent(tenant)}`,
      cursor && `cursor=${cursor}`,
    ]
      .filter(Boolean)
      .join('&');
    const page = await adminGet<AdminApprovalsPage>(`/v1/admin/approvals?${query}`, ['approvals', 'next']);
    rows = cursor === null ? page.approvals : [...rows, ...page.approvals];
    next = page.next;
    status.textContent = '';
    draw();
  }

  const fail = (error: unknown) => {
    status.textContent = describeFailure(error);
  };
  show.addEventListener('click', () => {
    tenant = filter.value.trim();
    load(null).catch(fail);
  });
  more.addEventListener('click', () => load(next).catch(fail));

  return { refresh: () => load(null) };
}
