import { Hono } from 'hono';
import type { AppEnv } from '../env';
import { CONSOLE_PAGE_CSP, CONSOLE_PAGE_HTML } from '../generated/console-page';

// The operator's console, one self-contained HTML file built from web/console/ by
// scripts/build-pages.js. The page itself is public and holds no data: everything it shows it reads
// from the admin API with the token the operator signs in with. Its policy allows only its own hashed
// script and style and requests to this origin.

export const consolePageRoutes = new Hono<AppEnv>().get(
  '/console',
  () =>
    new Response(CONSOLE_PAGE_HTML, {
      headers: {
        'content-type': 'text/html; charset=utf-8',
        'content-security-policy': CONSOLE_PAGE_CSP,
        'x-content-type-options': 'nosniff',
        'referrer-policy': 'no-referrer',
        'cross-origin-opener-policy': 'same-origin',
        'cache-control': 'no-cache',
      },
    }),
);
