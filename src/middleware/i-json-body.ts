import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../env';
import { findDuplicateKeys } from '../receipts/i-json';
import { iJsonError } from '../receipts/i-json-error';

// Receipts commit to I-JSON (RFC 7493): values with duplicate member names are ambiguous, and
// JSON.parse hides them by keeping the last one, so the raw text is checked before anything parses it.

/** 400 for a JSON body with a duplicate member name anywhere; must run before the body is parsed. */
export const rejectDuplicateKeys = createMiddleware<AppEnv>(async (c, next) => {
  if (/json/i.test(c.req.header('Content-Type') ?? '')) {
    const text = await c.req.text();
    let parses = true;
    try {
      JSON.parse(text);
    } catch {
      parses = false; // requireJson answers malformed JSON
    }
    const problems = parses ? findDuplicateKeys(text) : [];
    if (problems.length > 0) throw iJsonError(problems);
  }
  await next();
});
