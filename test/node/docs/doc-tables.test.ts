import { describe, expect, it } from 'vitest';
import catalogSchema from '../../../schemas/catalog.schema.json';
import { fieldRows, findTables, splitRow, tableProblems } from '../../../scripts/doc-tables.js';
import { lookupErrorCode, registeredErrorCodes } from '../../../src/errors';
import { documentFiles, readDocument } from './markdown';

// The marked tables of the docs (docs/reason-api.md's request, answer and error codes, docs/policy.md's
// catalog) say what schemas/ and the code's registry say: every field and code listed, none extra, each
// type, default, limit, status and retryable as there. `node scripts/doc-tables.js <file>` rewrites a
// document's tables after a schema changes.

const page = 'docs/reason-api.md';
const markdown = readDocument(page);

/** Every document with a marked table, and the roots its tables start from. */
const marked = documentFiles()
  .map((file) => ({
    file,
    roots: findTables(readDocument(file)).map(({ marker }) =>
      marker.kind === 'fields' ? `${marker.file}#${marker.pointer}` : marker.kind,
    ),
  }))
  .filter(({ roots }) => roots.length > 0);

describe('the marked tables of the docs', () => {
  it('are in the documents that describe a schema', () => {
    expect(marked.map(({ file }) => file)).toEqual(
      expect.arrayContaining(['docs/policy.md', 'docs/reason-api.md']),
    );
  });

  it.each(marked.map(({ file }) => file))('match schemas/ and the registry in %s', (file) => {
    expect(tableProblems(readDocument(file))).toEqual([]);
  });

  it('cover the whole catalog in docs/policy.md, from its root', () => {
    const roots = marked.find(({ file }) => file === 'docs/policy.md')?.roots;
    expect(roots).toContain('catalog.schema.json#');
  });

  it('catch a catalog field left out of docs/policy.md', () => {
    const policy = readDocument('docs/policy.md');
    const lines = policy.split('\n').filter((line) => !line.startsWith('| `models[].latency.ttftMsP90`'));
    expect(tableProblems(lines.join('\n'))).toEqual([
      'catalog.schema.json#/properties/models/items: no row for models[].latency.ttftMsP90',
    ]);
  });

  it('read exclusive bounds, formats and maps into the limits', () => {
    const limits = (pointer: string, prefix: string) =>
      Object.fromEntries(
        fieldRows(catalogSchema, pointer, prefix, new Set(), []).map((row) => [row.key, row.cells[4]]),
      );
    const models = limits('/properties/models/items', 'models[]');
    // zod writes exclusiveMinimum 0 and maximum Number.MAX_SAFE_INTEGER for a positive integer.
    expect(models['models[].contextTokens']).toBe('≥ 1');
    expect(models['models[].latency.outputTokensPerSec']).toBe('> 0');
    expect(models['models[].regions']).toBe('at least 1 item; each at least 1 character');
    const providers = limits('/properties/providers/items', 'providers[]');
    expect(providers['providers[].baseUrl']).toBe('format `uri`');
    expect(providers['providers[].headers']).toBe(
      'each name pattern `^[A-Za-z0-9-]{1,64}$`; each value at most 1024 characters',
    );
  });
});

/** The line of a table row, by its first cell (a field path or a code). */
function rowIndex(lines: string[], key: string): number {
  const index = lines.findIndex((line) => line.startsWith('|') && splitRow(line)[0] === `\`${key}\``);
  expect(index, key).toBeGreaterThan(-1);
  return index;
}

/** The page with one cell of a row changed, for the tests that make it wrong on purpose. */
function withCell(key: string, cell: number, value: string): string {
  const lines = markdown.split('\n');
  const i = rowIndex(lines, key);
  const cells = splitRow(lines[i] ?? '');
  cells[cell] = value;
  lines[i] = `| ${cells.join(' | ')} |`;
  return lines.join('\n');
}

/** The page without a row, or with `row` added after it. */
function withRow(key: string, row?: string): string {
  const lines = markdown.split('\n');
  const i = rowIndex(lines, key);
  if (row === undefined) lines.splice(i, 1);
  else lines.splice(i + 1, 0, row);
  return lines.join('\n');
}

describe('the tables of docs/reason-api.md', () => {
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
    expect(tableProblems(withRow('sampling.seed'))).toEqual([
      'reason-request.schema.json#: no row for sampling.seed',
    ]);
    expect(tableProblems(withRow('task', '| `taks` | string | no | | | A typo. |'))).toEqual([
      'reason-request.schema.json#: taks is not in the schema',
    ]);
    expect(tableProblems(withCell('task', 4, '1–512 characters'))).toEqual([
      'reason-request.schema.json#: task: limits should be "1–256 characters", not "1–512 characters"',
    ]);
    expect(tableProblems(withCell('auth.forbidden', 1, '401'))).toEqual([
      'error-codes: auth.forbidden: HTTP status should be "403", not "401"',
    ]);
  });

  it('catch a field whose meaning is left blank', () => {
    expect(tableProblems(withCell('receiptSalt', 5, ''))).toEqual([
      'reason-request.schema.json#: receiptSalt: says nothing about what it means',
    ]);
  });

  it('split cells on pipes that are not escaped', () => {
    expect(splitRow('| `a` | b \\| c | d |')).toEqual(['`a`', 'b \\| c', 'd']);
  });
});
