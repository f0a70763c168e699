import { Hono } from 'hono';
import type { AppEnv } from '../env';
import { VERIFY_PAGE_CSP, VERIFY_PAGE_HTML } from '../generated/verify-page';

// The browser verifier, one self-contained HTML file built from web/verify/ by
// scripts/build-verify-page.js. It is served as is, and offered for download so an auditor can keep
// a copy and verify offline; its policy allows only its own hashed script and style.

function page(download: boolean) {
  return new Response(VERIFY_PAGE_HTML, {
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': VERIFY_PAGE_CSP,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cross-origin-opener-policy': 'same-origin',
      'cache-control': 'no-cache',
      ...(download && { 'content-disposition': 'attachment; filename="valve-verify.html"' }),
    },
  });
}

export const verifyPageRoutes = new Hono<AppEnv>()
  .get('/verify', () => page(false))
  .get('/verify/valve-verify.html', () => page(true));
