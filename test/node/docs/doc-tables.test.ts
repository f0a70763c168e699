import { describe, expect, it } from 'vitest';
import { findTables, splitRow, tableProblems } from '../../../scripts/doc-tables.js';
import { lookupErrorCode, registeredErrorCodes } from '../../../src/errors';
import { readDocument } from './markdown';

// docs/reason-api.md's field tables and error-code table say what schemas/ and the code's registry say:
// every field and code listed, none extra, each type, default, limit, status and retryable as there.
// `node scripts/doc-tables.js docs/reason-api.md` rewrites them after a schema changes.

const page = 'docs/reason-api.md';
const markdown = readDocument(page);

/** The page with one line changed, for the tests that make it wrong on purpose. */
function edited(find: RegExp, replace: string): string {
  expect(markdown).toMatch(find);
  return markdown.replace(find, replace);
}

describe('the tables of docs/reason-api.md', () => {
  it('match the request and answer schemas and the error-code registry', () => {
    expect(tableProblems(markdown)).toEqual([]);
  });

  it('cover the whole request and the whole answer, from their roots', () => {
    const roots = findTables(markdown).map(({ marker }) =>
      marker.kind === 'fields' ? `${marker.file}#${marker.pointer}` : marker.kind,
    );
    expect(roots).toContain('reason-request.schema.json#');
    expect(roots).toContain('reason-response.schema.json#');
    expect(roots).toContain('error-codes');
  });

  it('list every code of src/errors.ts with its status and whether it is retryable', () => {
    const table = findTables(markdown).find(({ marker }) => marker.kind === 'error-codes');
    const rows = (table?.rows ?? []).map((row) => ({
      code: row.key,
      status: Number(row.cells[1]),
      retryable: row.cells[2] === 'yes',
    }));
    expect(rows).toEqual(
      registeredErrorCodes().map((code) => ({
        code,
        status: lookupErrorCode(code).status,
        retryable: lookupErrorCode(code).retryable,
      })),
    );
  });

  it('catch a missing field, an extra field, a wrong limit and a wrong status', () => {
    const missing = edited(/^\| `sampling\.seed` .*\n/m, '');
    expect(tableProblems(missing)).toEqual(['reason-request.schema.json#: no row for sampling.seed']);

    const extra = edited(/^(\| `task` .*\n)/m, '$1| `taks` | string | no |  |  | A typo. |\n');
    expect(tableProblems(extra)).toEqual(['reason-request.schema.json#: taks is not in the schema']);

    const limit = edited(/^(\| `task` \| string \| yes \| {2}\| )1–256 characters/m, '$11–512 characters');
    expect(tableProblems(limit)).toEqual([
      'reason-request.schema.json#: task: limits should be "1–256 characters", not "1–512 characters"',
    ]);

    const status = edited(/^(\| `auth\.forbidden` \| )403/m, '$1401');
    expect(tableProblems(status)).toEqual([
      'error-codes: auth.forbidden: HTTP status should be "403", not "401"',
    ]);
  });

  it('catch a field whose meaning is left blank', () => {
    const blank = edited(/^(\| `receiptSalt` (?:\|[^|]*){4}\| ).*\|$/m, '$1 |');
    expect(tableProblems(blank)).toEqual([
      'reason-request.schema.json#: receiptSalt: says nothing about what it means',
    ]);
  });

  it('split cells on pipes that are not escaped', () => {
    expect(splitRow('| `a` | b \\| c | d |')).toEqual(['`a`', 'b \\| c', 'd']);
  });
});
