import type { TenantsPage } from '../../src/contracts/admin-lists';
import { adminGet, ConsoleError, describeFailure, whenTokenRefused, wrongTokenMessage } from './admin-api';
import { createApprovalsView } from './approvals-view';
import { byId } from './dom';
import { createKeysView } from './keys-view';
import { createLogView } from './log-view';
import { createModelsView } from './models-view';
import { renderOverview } from './overview-view';
import { createTenantsView } from './tenants-view';
import { currentToken, rememberedToken, signIn, signOut } from './token-store';

// The operator's console: one page served by Valve at GET /console, signed in with the admin token,
// reading only Valve's own admin API. Views: overview, tenants and keys, models, pending approvals
// (read only), receipts and log.

const views = ['overview', 'tenants', 'models', 'approvals', 'log'] as const;
type View = (typeof views)[number];

const signInSection = byId('signin');
const app = byId('app');
const tokenInput = byId<HTMLInputElement>('token');
const remember = byId<HTMLInputElement>('remember');
const signInError = byId('signin-error');
const banner = byId('banner');

const keys = createKeysView(byId('keys'), () => void tenants.refresh().catch(showFailure));
const tenants = createTenantsView(byId('tenants'), (tenant) => {
  keys.showTenant(tenant).catch(showFailure);
  byId('keys').scrollIntoView({ block: 'start' });
});
const models = createModelsView(byId('view-models'));
const approvals = createApprovalsView(byId('view-approvals'));
const log = createLogView(byId('view-log'));

function showFailure(error: unknown): void {
  banner.textContent = describeFailure(error);
  banner.hidden = false;
}

function viewOf(hash: string): View {
  const name = hash.replace(/^#/, '');
  return (views as readonly string[]).includes(name) ? (name as View) : 'overview';
}

async function show(view: View): Promise<void> {
  banner.hidden = true;
  for (const name of views) {
    byId(`view-${name}`).hidden = name !== view;
    byId(`nav-${name}`).setAttribute('aria-current', name === view ? 'page' : 'false');
  }
  if (view !== 'models') models.stop();
  try {
    if (view === 'models') await models.start();
    if (view === 'overview') {
      const root = byId('view-overview');
      root.setAttribute('aria-busy', 'true');
      await renderOverview(byId('overview')).finally(() => root.setAttribute('aria-busy', 'false'));
    }
    if (view === 'tenants') await Promise.all([tenants.refresh(), keys.refresh()]);
    if (view === 'approvals') await approvals.refresh();
    if (view === 'log') await log.refresh();
    document.body.setAttribute('data-shown', view);
    // When the view was shown, for bench/console-load.js (a measure of the page, not a test).
    performance.mark(`valve-console:${view}`);
  } catch (error) {
    if (!(error instanceof ConsoleError && error.status === 401)) showFailure(error);
  }
}

function enter(): void {
  signInSection.hidden = true;
  app.hidden = false;
  void show(viewOf(location.hash));
}

function leave(message: string): void {
  signOut();
  models.stop();
  keys.forgetSecret();
  app.hidden = true;
  signInSection.hidden = false;
  signInError.textContent = message;
  signInError.hidden = message === '';
  tokenInput.focus();
}

/** Signs in with `token` once Valve accepts it as the admin token. */
async function tryToken(token: string, keep: boolean): Promise<void> {
  signIn(token, keep);
  try {
    await adminGet<TenantsPage>('/v1/admin/tenants?limit=1', ['tenants']);
    tokenInput.value = '';
    signInError.hidden = true;
    enter();
  } catch (error) {
    leave(error instanceof ConsoleError && error.status === 401 ? wrongTokenMessage : describeFailure(error));
  }
}

whenTokenRefused(leave);

byId('signin-form').addEventListener('submit', (event) => {
  // Never submitted: the token goes only into this page's memory (the form has no action, and the
  // page's policy forbids form submission anyway).
  event.preventDefault();
  const token = tokenInput.value.trim();
  if (token === '') {
    leave('Enter the admin token: the ADMIN_TOKEN secret of this Valve.');
    return;
  }
  void tryToken(token, remember.checked);
});

// Signing out forgets the token and starts the page afresh, so nothing of the session stays in it.
byId('signout').addEventListener('click', () => {
  signOut();
  location.reload();
});
window.addEventListener('hashchange', () => {
  if (currentToken() !== undefined) void show(viewOf(location.hash));
});
document.addEventListener('visibilitychange', () => {
  if (document.hidden) models.stop();
  else if (currentToken() !== undefined && viewOf(location.hash) === 'models') void models.start();
});

// A token this tab kept goes straight to the view: the view's own first call is the check, and a
// refusal (a token rotated since) brings the sign-in form back with the reason.
const kept = rememberedToken();
if (kept !== undefined) {
  remember.checked = true;
  signIn(kept, true);
  enter();
} else {
  tokenInput.focus();
}
