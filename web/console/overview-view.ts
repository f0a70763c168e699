import type { TenantListing, TenantsPage } from '../../src/contracts/admin-lists';
import type { AdminUsageBody, AdminUsageRow } from '../../src/contracts/admin-usage';
import { adminGet, allPages } from './admin-api';
import { daysBetween } from './chart-scale';
import { barChart, columnChart } from './charts';
import { type Child, el, emptyState, table } from './dom';
import { count, usd, utcDay } from './format';

// Overview: spend and requests today and this month (UTC, as Valve keeps usage), by day, tenant and
// model, and the top tenants against their caps.

const TOP = 8;

/** A usage row's model: `none` is what Valve records when no model answered (refused, or every attempt failed). */
function modelName(model: string | undefined): string {
  return model === 'none' ? '(no model answered)' : (model ?? '');
}

interface Usage {
  rows: AdminUsageRow[];
  totals: { requests: number; errors: number; costUsd: number };
}

async function usage(query: string): Promise<Usage> {
  let totals: Usage['totals'] = { requests: 0, errors: 0, costUsd: 0 };
  const { items } = await allPages(`/v1/admin/usage?${query}&limit=10000`, async (path) => {
    const body = await adminGet<AdminUsageBody>(path, ['rows', 'totals', 'next']);
    totals = body.totals;
    return { items: body.rows, next: body.next };
  });
  return { rows: items, totals };
}

/** Each tenant's monthly cap, from the tenants list (one request for up to 1000 tenants). */
async function capsOfTenants(): Promise<Map<string, number | null>> {
  const { items } = await allPages<TenantListing>('/v1/admin/tenants?limit=1000', async (path) => {
    const page = await adminGet<TenantsPage>(path, ['tenants', 'next']);
    return { items: page.tenants, next: page.next };
  });
  return new Map(items.map((tenant) => [tenant.tenant, tenant.capUsd]));
}

function tile(title: string, figures: Usage['totals']): HTMLElement {
  return el(
    'section',
    { class: 'tile', 'aria-label': title },
    el('h3', {}, title),
    el('p', { class: 'big' }, usd(figures.costUsd)),
    el('p', {}, `${count(figures.requests)} requests, ${count(figures.errors)} errors`),
  );
}

/** Today's and the month's figures side by side, per tenant or per model, the month's biggest first. */
function breakdown(caption: string, key: 'tenant' | 'model', month: Usage, today: Usage): HTMLElement {
  const todayOf = new Map(today.rows.map((row) => [row[key] ?? '', row]));
  const rows: Child[][] = [...month.rows]
    .sort((a, b) => b.costUsd - a.costUsd)
    .map((row) => {
      const day = todayOf.get(row[key] ?? '');
      return [
        key === 'model' ? modelName(row.model) : (row.tenant ?? ''),
        count(day?.requests ?? 0),
        usd(day?.costUsd ?? 0),
        count(row.requests),
        usd(row.costUsd),
        count(row.errors),
      ];
    });
  const heading = key === 'tenant' ? 'Tenant' : 'Model';
  return table(
    caption,
    [
      heading,
      'Requests today',
      'Spend today',
      'Requests this month',
      'Spend this month',
      'Errors this month',
    ],
    rows,
    {
      'data-list': `by-${key}`,
    },
  );
}

export async function renderOverview(root: HTMLElement, now = Date.now()): Promise<void> {
  const today = utcDay(now);
  const first = `${today.slice(0, 7)}-01`;
  const month = `from=${first}&to=${today}`;
  const [byDay, tenantsMonth, tenantsToday, modelsMonth, modelsToday, caps] = await Promise.all([
    usage(`${month}&groupBy=day`),
    usage(`${month}&groupBy=tenant`),
    usage(`from=${today}&to=${today}&groupBy=tenant`),
    usage(`${month}&groupBy=model`),
    usage(`from=${today}&to=${today}&groupBy=model`),
    capsOfTenants(),
  ]);
  const tiles = el(
    'div',
    { class: 'tiles' },
    tile('Today (UTC)', tenantsToday.totals),
    tile('This month', byDay.totals),
  );
  if (byDay.totals.requests === 0) {
    root.replaceChildren(
      tiles,
      emptyState(
        'No requests yet this month. Spend and requests appear here once a key calls POST /v1/reason (or the OpenAI door); create a key under Tenants and keys.',
      ),
    );
    return;
  }
  const top = [...tenantsMonth.rows].sort((a, b) => b.costUsd - a.costUsd).slice(0, TOP);
  const spendByDay = new Map(byDay.rows.map((row) => [row.day ?? '', row.costUsd]));
  root.replaceChildren(
    tiles,
    el(
      'div',
      { class: 'charts' },
      columnChart(
        'Spend by day this month (UTC)',
        daysBetween(first, today).map((day) => ({ label: day.slice(8), value: spendByDay.get(day) ?? 0 })),
        usd,
      ),
      barChart(
        `Top tenants this month against their caps`,
        top.map((row) => ({
          label: row.tenant ?? '',
          value: row.costUsd,
          cap: caps.get(row.tenant ?? '') ?? null,
        })),
        usd,
      ),
      barChart(
        'Spend by model this month',
        [...modelsMonth.rows]
          .sort((a, b) => b.costUsd - a.costUsd)
          .slice(0, TOP)
          .map((row) => ({ label: modelName(row.model), value: row.costUsd })),
        usd,
      ),
      barChart(
        'Requests by model today',
        [...modelsToday.rows]
          .sort((a, b) => b.requests - a.requests)
          .slice(0, TOP)
          .map((row) => ({ label: modelName(row.model), value: row.requests })),
        count,
      ),
    ),
    breakdown('By tenant', 'tenant', tenantsMonth, tenantsToday),
    breakdown('By model', 'model', modelsMonth, modelsToday),
  );
}
