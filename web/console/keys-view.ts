import type { KeyListing, KeysPage } from '../../src/contracts/admin-lists';
import type { CreatedKey, RevokedKey } from '../../src/contracts/operator-bodies';
import { scopes } from '../../src/contracts/scopes';
import { adminGet, adminSend, describeFailure } from './admin-api';
import { el, emptyState, table } from './dom';
import { dateTime } from './format';

// API keys: listed by id, tenant, scopes, rate limit, created and last used (Valve keeps only a hash
// of each secret and never lists even that); created here with the secret shown once, and revoked.

const PAGE = 100;

export interface KeysView {
  refresh(): Promise<void>;
  showTenant(tenant: string): Promise<void>;
  /** Takes a new key's secret off the page, shown or not (on sign-out). */
  forgetSecret(): void;
}

export function createKeysView(root: HTMLElement, changed: () => void): KeysView {
  const filter = el('input', { type: 'text', id: 'keys-tenant', autocomplete: 'off', spellcheck: 'false' });
  const list = el('div', { 'aria-live': 'polite' });
  const more = el('button', { type: 'button', hidden: '' }, 'Show more keys');
  const listStatus = el('p', { role: 'status', class: 'status' });
  const tenantInput = el('input', {
    type: 'text',
    id: 'new-key-tenant',
    autocomplete: 'off',
    spellcheck: 'false',
    required: '',
  });
  const rateInput = el('input', {
    type: 'number',
    id: 'new-key-rate',
    min: '1',
    step: '1',
    inputmode: 'numeric',
  });
  const scopeBoxes = scopes.map((scope) =>
    el('input', {
      type: 'checkbox',
      id: `new-key-scope-${scope.replace(':', '-')}`,
      value: scope,
      ...(scope === 'reason' ? { checked: '' } : {}),
    }),
  );
  const createStatus = el('p', { role: 'status', class: 'status' });
  const secret = el('div', { id: 'new-key-secret', hidden: '' });
  const form = el(
    'form',
    { class: 'inline-form', 'aria-labelledby': 'new-key-heading' },
    el('h3', { id: 'new-key-heading' }, 'Create a key'),
    el('label', { for: 'new-key-tenant' }, 'Tenant'),
    tenantInput,
    el(
      'fieldset',
      {},
      el('legend', {}, 'Scopes'),
      ...scopeBoxes.map((box) => el('label', { class: 'check', for: box.id }, box, ` ${box.value}`)),
    ),
    el('label', { for: 'new-key-rate' }, 'Requests per minute (empty: the deployment default)'),
    rateInput,
    el('p', { class: 'row' }, el('button', { type: 'submit', class: 'primary' }, 'Create key')),
    createStatus,
  );
  root.replaceChildren(
    el('h2', {}, 'API keys'),
    el('label', { for: 'keys-tenant' }, 'Show the keys of one tenant (empty: every tenant)'),
    el('p', { class: 'row' }, filter, el('button', { type: 'button', id: 'keys-filter' }, 'Show')),
    list,
    more,
    listStatus,
    secret,
    form,
  );

  let rows: KeyListing[] = [];
  let next: string | null = null;
  let tenant = '';

  function draw(): void {
    if (rows.length === 0) {
      list.replaceChildren(
        emptyState(
          tenant === '' ? 'No keys yet. Create one below.' : `${tenant} has no keys. Create one below.`,
        ),
      );
    } else {
      list.replaceChildren(
        table(
          tenant === '' ? 'Keys of every tenant, newest first' : `Keys of ${tenant}, newest first`,
          ['Key id', 'Tenant', 'Scopes', 'Requests per minute', 'Created', 'Last used', 'State', ''],
          rows.map((key) => [
            el('code', {}, key.id),
            key.tenant,
            key.scopes.join(', '),
            key.rateLimitPerMinute === null ? 'default' : String(key.rateLimitPerMinute),
            dateTime(key.createdAt),
            key.lastUsedAt === null ? 'never' : dateTime(key.lastUsedAt),
            key.revokedAt === null ? 'active' : `revoked ${dateTime(key.revokedAt)}`,
            key.revokedAt === null
              ? el(
                  'button',
                  { type: 'button', 'data-revoke': key.id, 'aria-label': `Revoke ${key.id}` },
                  'Revoke',
                )
              : '',
          ]),
          { id: 'keys-table' },
        ),
      );
    }
    more.hidden = next === null;
  }

  async function load(cursor: string | null): Promise<void> {
    const query = [
      `limit=${PAGE}`,
      tenant && `tenant=${encodeURIComponent(tenant)}`,
      cursor && `cursor=${cursor}`,
    ]
      .filter(Boolean)
      .join('&');
    const page = await adminGet<KeysPage>(`/v1/admin/keys?${query}`, ['keys', 'next']);
    rows = cursor === null ? page.keys : [...rows, ...page.keys];
    next = page.next;
    draw();
  }

  const fail = (error: unknown) => {
    listStatus.textContent = describeFailure(error);
  };

  root.querySelector('#keys-filter')?.addEventListener('click', () => {
    tenant = filter.value.trim();
    load(null).catch(fail);
  });
  more.addEventListener('click', () => load(next).catch(fail));

  // Revoking asks once, in the row, before it acts.
  list.addEventListener('click', (event) => {
    const target = event.target as HTMLElement;
    const id = target.getAttribute('data-revoke');
    if (id !== null) {
      const cell = target.parentElement as HTMLElement;
      cell.replaceChildren(
        el('span', {}, 'Requests with this key will fail (within 10 s everywhere). '),
        el('button', { type: 'button', class: 'danger', 'data-confirm-revoke': id }, `Revoke ${id}`),
        el('button', { type: 'button', 'data-keep': id }, 'Keep'),
      );
      return;
    }
    const confirmed = target.getAttribute('data-confirm-revoke');
    if (confirmed !== null) {
      adminSend<RevokedKey>('DELETE', `/v1/admin/keys/${encodeURIComponent(confirmed)}`, undefined, [
        'id',
        'tenant',
      ])
        .then(async (revoked) => {
          listStatus.textContent = `Revoked ${revoked.id} of ${revoked.tenant}.`;
          await load(null);
          changed();
        })
        .catch(fail);
      return;
    }
    if (target.hasAttribute('data-keep')) draw();
  });

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const chosen = scopeBoxes.filter((box) => box.checked).map((box) => box.value);
    const rate = rateInput.value.trim();
    if (chosen.length === 0) {
      createStatus.textContent =
        'Choose at least one scope: reason to call the API, receipts:read or usage:read to read back, approvals:write for a reviewer.';
      return;
    }
    const body = {
      tenant: tenantInput.value.trim(),
      scopes: chosen,
      ...(rate === '' ? {} : { rateLimitPerMinute: Number(rate) }),
    };
    adminSend<CreatedKey>('POST', '/v1/admin/keys', body, ['id', 'key', 'tenant'])
      .then(async (created) => {
        createStatus.textContent = `Created ${created.id} for ${created.tenant}.`;
        showSecretOnce(created.id, created.key);
        tenant = created.tenant;
        filter.value = created.tenant;
        await load(null);
        changed();
      })
      .catch((error) => {
        createStatus.textContent = describeFailure(error);
      });
  });

  /** The secret, shown in this panel until dismissed; it is kept nowhere else, and Valve cannot show it again. */
  function showSecretOnce(id: string, key: string): void {
    const field = el('input', {
      type: 'text',
      id: 'new-key-value',
      readonly: '',
      spellcheck: 'false',
      autocomplete: 'off',
    });
    field.value = key;
    const copy = el('button', { type: 'button' }, 'Copy');
    const done = el('button', { type: 'button', class: 'primary', id: 'new-key-done' }, 'I have stored it');
    secret.replaceChildren(
      el('h3', {}, `The secret of ${id}`),
      el(
        'p',
        { class: 'warn' },
        'Copy it now: this is the only time it is shown. Valve keeps only its hash.',
      ),
      el('label', { for: 'new-key-value' }, 'Secret'),
      field,
      el('p', { class: 'row' }, copy, done),
    );
    secret.hidden = false;
    copy.addEventListener('click', () => {
      field.select();
      navigator.clipboard?.writeText(key).catch(() => {});
    });
    done.addEventListener('click', () => {
      secret.replaceChildren();
      secret.hidden = true;
    });
    field.focus();
    field.select();
  }

  return {
    forgetSecret: () => {
      secret.replaceChildren();
      secret.hidden = true;
    },
    refresh: () => load(null),
    showTenant: (name) => {
      tenant = name;
      filter.value = name;
      return load(null);
    },
  };
}
