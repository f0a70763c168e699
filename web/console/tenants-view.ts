import type { TenantListing, TenantsPage } from '../../src/contracts/admin-lists';
import type { BudgetStatusBody } from '../../src/contracts/operator-bodies';
import { adminGet, adminSend, describeFailure } from './admin-api';
import { type Child, el, emptyState, table } from './dom';
import { count, usd } from './format';

// Tenants: each with its keys, monthly cap, this month's spend and what is left; and the form that
// sets or removes a cap (PUT /v1/admin/tenants/{tenant}/budget).

const PAGE = 100;

function capCell(row: TenantListing): string {
  return row.capUsd === null ? 'no cap' : usd(row.capUsd);
}

function leftCell(row: TenantListing): Child {
  if (row.remainingUsd === null || row.capUsd === null) return '—';
  const text = usd(row.remainingUsd);
  return row.remainingUsd <= 0 ? el('strong', { class: 'bad' }, `${text} (cap reached)`) : text;
}

export interface TenantsView {
  refresh(): Promise<void>;
}

export function createTenantsView(root: HTMLElement, showKeysOf: (tenant: string) => void): TenantsView {
  const list = el('div', { 'aria-live': 'polite' });
  const more = el('button', { type: 'button', hidden: '' }, 'Show more tenants');
  const status = el('p', { role: 'status', class: 'status' });
  const tenantInput = el('input', {
    type: 'text',
    id: 'cap-tenant',
    autocomplete: 'off',
    spellcheck: 'false',
    required: '',
  });
  const capInput = el('input', {
    type: 'number',
    id: 'cap-usd',
    min: '0',
    step: 'any',
    inputmode: 'decimal',
  });
  const form = el(
    'form',
    { class: 'inline-form', 'aria-labelledby': 'cap-heading' },
    el('h3', { id: 'cap-heading' }, 'Set or remove a monthly cap'),
    el('label', { for: 'cap-tenant' }, 'Tenant'),
    tenantInput,
    el('label', { for: 'cap-usd' }, 'Monthly cap in USD'),
    capInput,
    el(
      'p',
      { class: 'row' },
      el('button', { type: 'submit', class: 'primary', id: 'cap-set' }, 'Set cap'),
      el('button', { type: 'button', id: 'cap-clear' }, 'Remove cap'),
    ),
    status,
  );
  root.replaceChildren(el('h2', {}, 'Tenants'), list, more, form);

  let rows: TenantListing[] = [];
  let next: string | null = null;

  function draw(): void {
    if (rows.length === 0) {
      list.replaceChildren(
        emptyState(
          'No tenants yet. A tenant is the name a key is created for: create a key below, or set a cap for a tenant to come.',
        ),
      );
    } else {
      list.replaceChildren(
        table(
          'Tenants, by name',
          ['Tenant', 'Active keys', 'Revoked keys', 'Monthly cap', 'Spent this month', 'Left'],
          rows.map((row) => [
            el(
              'button',
              {
                type: 'button',
                class: 'link',
                'data-tenant': row.tenant,
                title: `Show the keys of ${row.tenant}`,
              },
              row.tenant,
            ),
            count(row.activeKeys),
            count(row.revokedKeys),
            capCell(row),
            usd(row.spentUsd),
            leftCell(row),
          ]),
          { id: 'tenants-table' },
        ),
      );
    }
    more.hidden = next === null;
  }

  async function load(cursor: string | null): Promise<void> {
    const page = await adminGet<TenantsPage>(
      `/v1/admin/tenants?limit=${PAGE}${cursor ? `&cursor=${cursor}` : ''}`,
      ['tenants', 'next'],
    );
    rows = cursor === null ? page.tenants : [...rows, ...page.tenants];
    next = page.next;
    draw();
  }

  list.addEventListener('click', (event) => {
    const tenant = (event.target as HTMLElement).closest('button[data-tenant]')?.getAttribute('data-tenant');
    if (tenant) {
      tenantInput.value = tenant;
      showKeysOf(tenant);
    }
  });
  more.addEventListener('click', () => {
    load(next).catch((error) => {
      status.textContent = describeFailure(error);
    });
  });

  async function setCap(monthlyCapUsd: number | null): Promise<void> {
    const tenant = tenantInput.value.trim();
    if (tenant === '') {
      status.textContent = 'Name the tenant whose cap to set.';
      tenantInput.focus();
      return;
    }
    try {
      const budget = await adminSend<BudgetStatusBody>(
        'PUT',
        `/v1/admin/tenants/${encodeURIComponent(tenant)}/budget`,
        { monthlyCapUsd },
        ['capUsd', 'spentUsd'],
      );
      status.textContent =
        budget.capUsd === null
          ? `${tenant} has no cap now: its requests are not held to a monthly budget.`
          : `${tenant}'s cap is now ${usd(budget.capUsd)} a month: ${usd(budget.spentUsd)} spent, ${usd(budget.remainingUsd ?? 0)} left (requests in flight hold ${usd(budget.reservedUsd)}).`;
      await load(null);
    } catch (error) {
      status.textContent = describeFailure(error);
    }
  }

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const text = capInput.value.trim();
    const cap = Number(text);
    if (text === '' || !Number.isFinite(cap) || cap < 0) {
      status.textContent = 'Give the cap as a number of US dollars, 0 or more (0 refuses every request).';
      capInput.focus();
      return;
    }
    void setCap(cap);
  });
  form.querySelector('#cap-clear')?.addEventListener('click', () => void setCap(null));

  return { refresh: () => load(null) };
}
