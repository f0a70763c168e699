// The field tables and the error-code table of a document, derived from schemas/. Each table follows a
// marker comment that says what it shows:
//
//   <!-- fields: reason-request.schema.json#/properties/modelPolicy as modelPolicy -->
//   <!-- error-codes -->
//
// A fields table has one row per property under its pointer, nested objects and array items flattened
// into dotted paths (`modelPolicy.pinned.provider`, `context[].label`), except where another table of the
// same schema file starts. Its cells are derived from the schema, all but the last (what the field
// means), which is written by hand. The error-code table is the registry, schemas/error-codes.json.
//
//   node scripts/doc-tables.js docs/policy.md          rewrites the tables, keeping each row's meaning,
//                                                      and formats the file with Biome
//   node scripts/doc-tables.js --check docs/policy.md  lists what differs, exits 1 if anything does
//
// test/node/docs/doc-tables.test.ts runs the check on every document with a marker in `npm test`.

import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const schemasDir = join(import.meta.dirname, '../schemas');

const fieldsHeader = ['field', 'type', 'required', 'default', 'limits', 'meaning'];
const codesHeader = ['code', 'HTTP status', 'retryable', 'meaning'];

/**
 * @typedef {Record<string, any>} Schema
 * @typedef {{ key: string, cells: string[] }} Row
 * @typedef {{ kind: 'fields', file: string, pointer: string, prefix: string } | { kind: 'error-codes' }} Marker
 * @typedef {{ marker: Marker, markerLine: number, start: number, end: number, rows: Row[] }} Table
 */

/** @param {string} file */
function loadSchema(file) {
  return JSON.parse(readFileSync(join(schemasDir, file), 'utf8'));
}

/** @param {Schema} root @param {string} pointer */
function at(root, pointer) {
  let node = root;
  for (const raw of pointer.split('/').slice(1)) {
    const part = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    if (node === undefined || node === null || typeof node !== 'object') return undefined;
    node = node[part];
  }
  return node;
}

/** Follows local `$ref`s; answers the node and its own pointer. @param {Schema} root @param {Schema} node @param {string} pointer */
function resolve(root, node, pointer) {
  let current = node;
  let where = pointer;
  while (current && typeof current.$ref === 'string') {
    if (!current.$ref.startsWith('#')) throw new Error(`${where}: only local $refs are supported`);
    where = current.$ref.slice(1);
    current = at(root, where);
    if (current === undefined) throw new Error(`${pointer}: $ref ${where} points nowhere`);
  }
  return { node: current, pointer: where };
}

const code = (/** @type {unknown} */ value) => `\`${String(value)}\``;

/** @param {unknown} value */
function jsonType(value) {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** @param {string[]} words */
function orList(words) {
  const unique = [...new Set(words)];
  if (unique.length <= 1) return unique[0] ?? '';
  return `${unique.slice(0, -1).join(', ')} or ${unique.at(-1)}`;
}

/** @param {Schema} root @param {Schema} schema @param {string} pointer @returns {{ node: Schema, pointer: string }[]} */
function alternatives(root, schema, pointer) {
  const list = schema.anyOf ?? schema.oneOf;
  const key = schema.anyOf ? 'anyOf' : 'oneOf';
  if (!Array.isArray(list)) return [];
  return list.map((alt, i) => resolve(root, alt, `${pointer}/${key}/${i}`));
}

/** The type cell. @param {Schema} root @param {Schema} schema @param {string} pointer @returns {string} */
function typeOf(root, schema, pointer) {
  if ('const' in schema) return jsonType(schema.const);
  if (Array.isArray(schema.enum)) return orList(schema.enum.map(jsonType));
  const alts = alternatives(root, schema, pointer);
  if (alts.length > 0) return orList(alts.map((alt) => typeOf(root, alt.node, alt.pointer)));
  if (Array.isArray(schema.type)) return orList(schema.type);
  if (schema.type === 'array') {
    const items = resolve(root, schema.items ?? {}, `${pointer}/items`);
    return `array of ${typeOf(root, items.node, items.pointer)}`;
  }
  if (typeof schema.type === 'string') return schema.type;
  return 'any JSON value';
}

/** @param {number} n */
const number = (n) => (Math.abs(n) >= 10_000 ? n.toLocaleString('en-US') : String(n));

/** @param {number | undefined} min @param {number | undefined} max @param {string} unit */
function range(min, max, unit) {
  const to = unit === '' ? ' to ' : '–';
  const tail = (/** @type {number} */ n) =>
    unit === '' ? '' : ` ${n === 1 ? unit.replace(/s$/, '') : unit}`;
  if (min !== undefined && max !== undefined) {
    return min === max ? `${number(min)}${tail(min)}` : `${number(min)}${to}${number(max)}${tail(max)}`;
  }
  if (max !== undefined) return `at most ${number(max)}${tail(max)}`;
  if (min !== undefined) return `at least ${number(min)}${tail(min)}`;
  return '';
}

/**
 * The numeric range of a schema: exclusive bounds read as `> n` and `< n` (or, for an integer, as the
 * inclusive bound next to them); a maximum of Number.MAX_SAFE_INTEGER, which zod writes for every
 * integer, is no limit a reader needs to see.
 * @param {Schema} schema
 */
function numberRange(schema) {
  const integer = schema.type === 'integer';
  let min = schema.minimum;
  let max = schema.maximum === Number.MAX_SAFE_INTEGER ? undefined : schema.maximum;
  /** @type {string[]} */
  const open = [];
  if (typeof schema.exclusiveMinimum === 'number') {
    if (integer) min = schema.exclusiveMinimum + 1;
    else open.push(`> ${number(schema.exclusiveMinimum)}`);
  }
  if (typeof schema.exclusiveMaximum === 'number') {
    if (integer) max = schema.exclusiveMaximum - 1;
    else open.push(`< ${number(schema.exclusiveMaximum)}`);
  }
  const closed = range(min, max, '')
    .replace(/^at most /, '≤ ')
    .replace(/^at least /, '≥ ');
  return [closed, ...open].filter((part) => part !== '').join(', ');
}

/** @param {Schema} schema @returns {unknown[] | undefined} */
function valuesOf(schema) {
  if ('const' in schema) return [schema.const];
  return Array.isArray(schema.enum) ? schema.enum : undefined;
}

/** The limits cell. @param {Schema} root @param {Schema} schema @param {string} pointer @returns {string} */
function limitsOf(root, schema, pointer) {
  const values = valuesOf(schema);
  if (values !== undefined) {
    return values.length === 1 ? `always ${code(values[0])}` : `one of ${values.map(code).join(', ')}`;
  }
  const alts = alternatives(root, schema, pointer);
  if (alts.length > 0) {
    const objects = alts.filter((alt) => alt.node.type === 'object');
    const others = alts.filter((alt) => alt.node.type !== 'object');
    const merged = others.flatMap((alt) => valuesOf(alt.node) ?? []);
    const parts = others.length > 0 && merged.length > 0 ? [`one of ${merged.map(code).join(', ')}`] : [];
    if (parts.length > 0 && objects.length > 0) parts.push('or an object');
    return parts.join(' ');
  }
  /** @type {string[]} */
  const parts = [];
  const textRange = range(schema.minLength, schema.maxLength, 'characters');
  if (textRange) parts.push(textRange);
  if (typeof schema.pattern === 'string') parts.push(`pattern ${code(schema.pattern)}`);
  if (typeof schema.format === 'string') parts.push(`format ${code(schema.format)}`);
  const numbers = numberRange(schema);
  if (numbers) parts.push(numbers);
  const itemsRange = range(schema.minItems, schema.maxItems, 'items');
  if (itemsRange) parts.push(itemsRange);
  if (schema.type === 'array' && schema.items) {
    const items = resolve(root, schema.items, `${pointer}/items`);
    const each = items.node.type === 'object' ? '' : limitsOf(root, items.node, items.pointer);
    if (each) parts.push(`each ${each}`);
  }
  // A map: an object whose keys are the caller's, limited by propertyNames and additionalProperties.
  if (!schema.properties && schema.propertyNames) {
    const names = limitsOf(root, schema.propertyNames, `${pointer}/propertyNames`);
    if (names) parts.push(`each name ${names}`);
  }
  if (!schema.properties && schema.additionalProperties && typeof schema.additionalProperties === 'object') {
    const values = limitsOf(root, schema.additionalProperties, `${pointer}/additionalProperties`);
    if (values) parts.push(`each value ${values}`);
  }
  return parts.join('; ');
}

/**
 * The object forms of a schema: itself when it has properties, or its inline object alternatives.
 * @param {Schema} root @param {Schema} schema @param {string} pointer
 */
function objectForms(root, schema, pointer) {
  if (schema.properties) return [{ node: schema, pointer }];
  return alternatives(root, schema, pointer).filter((alt) => alt.node.properties);
}

/**
 * One schema standing for a property that several forms define: their values merged when each is a
 * constant or a list of values, else the first when all read alike, else their alternatives.
 * @param {Schema} root @param {{ node: Schema, pointer: string }[]} members
 */
function merge(root, members) {
  const first = /** @type {{ node: Schema, pointer: string }} */ (members[0]);
  if (members.length === 1) return first;
  const values = members.map((m) => valuesOf(m.node));
  if (values.every((v) => v !== undefined)) return { node: { enum: values.flat() }, pointer: first.pointer };
  const read = (/** @type {{ node: Schema, pointer: string }} */ m) =>
    `${typeOf(root, m.node, m.pointer)}|${limitsOf(root, m.node, m.pointer)}`;
  if (members.every((m) => read(m) === read(first))) return first;
  return { node: { anyOf: members.map((m) => m.node) }, pointer: first.pointer };
}

/**
 * The rows of one table: every property under `pointer`, recursing into objects and array items until
 * another table's root. `roots` are the pointers where tables start.
 * @param {Schema} root @param {string} pointer @param {string} prefix @param {Set<string>} roots
 * @param {string[]} problems
 * @returns {Row[]}
 */
export function fieldRows(root, pointer, prefix, roots, problems) {
  const start = at(root, pointer);
  if (start === undefined) {
    problems.push(`no schema at ${pointer}`);
    return [];
  }
  /** @type {Row[]} */
  const rows = [];
  /** @param {{ node: Schema, pointer: string }[]} forms @param {string} path */
  const walk = (forms, path) => {
    const names = [...new Set(forms.flatMap((form) => Object.keys(form.node.properties)))];
    // A property some forms lack is required only with the value that names its form.
    const discriminator = names.find((name) =>
      forms.every((form) => form.node.properties[name] && 'const' in form.node.properties[name]),
    );
    for (const name of names) {
      const holders = forms.filter((form) => form.node.properties[name]);
      const members = holders.map((form) =>
        resolve(root, form.node.properties[name], `${form.pointer}/properties/${name}`),
      );
      const member = merge(root, members);
      const requiredIn = holders.filter((form) => form.node.required?.includes(name));
      let required = requiredIn.length === forms.length ? 'yes' : requiredIn.length === 0 ? 'no' : '';
      if (required === '' && discriminator !== undefined) {
        const values = requiredIn.map((form) => code(form.node.properties[discriminator].const));
        required = `when ${code(discriminator)} is ${orList(values)}`;
      } else if (required === '') {
        required = 'in some forms';
      }
      const key = path === '' ? name : `${path}.${name}`;
      const fallback = member.node.default;
      rows.push({
        key,
        cells: [
          code(key),
          typeOf(root, member.node, member.pointer),
          required,
          fallback === undefined ? '' : code(JSON.stringify(fallback)),
          escapeCell(limitsOf(root, member.node, member.pointer)),
        ],
      });
      for (const one of members) descend(one.node, one.pointer, key);
    }
  };
  /** @param {Schema} schema @param {string} where @param {string} path */
  const descend = (schema, where, path) => {
    if (roots.has(where)) return;
    if (schema.type === 'array' && schema.items) {
      const items = resolve(root, schema.items, `${where}/items`);
      descend(items.node, items.pointer, `${path}[]`);
      return;
    }
    const forms = objectForms(root, schema, where);
    // Named forms (conversation turns) read better as tables of their own than merged into one.
    const named = schema.properties ? [] : forms.filter((form) => form.pointer.startsWith('/$defs/'));
    for (const form of named) {
      if (!roots.has(form.pointer))
        problems.push(`${path}: the form ${form.pointer} needs a table of its own`);
    }
    const own = forms.filter((form) => !roots.has(form.pointer) && !named.includes(form));
    if (own.length > 0) walk(own, path);
  };
  const resolved = resolve(root, start, pointer);
  const forms = objectForms(root, resolved.node, resolved.pointer);
  if (forms.length === 0) problems.push(`${pointer} has no properties to list`);
  else walk(forms, prefix);
  return rows;
}

/** @returns {Row[]} */
function errorCodeRows() {
  const registry = loadSchema('error-codes.json');
  return registry.codes.map((/** @type {Schema} */ entry) => ({
    key: entry.code,
    cells: [
      code(entry.code),
      String(entry.status),
      entry.retryable ? 'yes' : 'no',
      escapeCell(entry.meaning),
    ],
  }));
}

/** @param {string} text */
function escapeCell(text) {
  return text.replaceAll('|', '\\|');
}

/** @param {string} line */
export function splitRow(line) {
  const inner = line.trim().replace(/^\|/, '').replace(/\|$/, '');
  return inner.split(/(?<!\\)\|/).map((cell) => cell.trim());
}

/** @param {string} line @returns {Marker | undefined} */
function parseMarker(line) {
  const fields = /^<!--\s*fields:\s*(\S+?)#(\S*)(?:\s+as\s+(\S+))?\s*-->$/.exec(line.trim());
  if (fields) {
    return { kind: 'fields', file: fields[1] ?? '', pointer: fields[2] ?? '', prefix: fields[3] ?? '' };
  }
  if (/^<!--\s*error-codes\s*-->$/.test(line.trim())) return { kind: 'error-codes' };
  return undefined;
}

/** The marked tables of a document. @param {string} markdown @returns {Table[]} */
export function findTables(markdown) {
  const lines = markdown.split('\n');
  /** @type {Table[]} */
  const tables = [];
  lines.forEach((line, i) => {
    const marker = parseMarker(line);
    if (marker === undefined) return;
    let start = i + 1;
    while (start < lines.length && lines[start]?.trim() === '') start++;
    let end = start;
    while (end < lines.length && lines[end]?.trim().startsWith('|')) end++;
    const rows = lines
      .slice(start + 2, end)
      .map(splitRow)
      .map((cells) => ({ key: (cells[0] ?? '').replaceAll('`', ''), cells }));
    tables.push({ marker, markerLine: i, start, end, rows });
  });
  return tables;
}

/** What every marked table should hold. @param {Table[]} tables @param {string[]} problems */
function expectedRows(tables, problems) {
  /** @type {Map<string, Set<string>>} */
  const rootsOf = new Map();
  for (const { marker } of tables) {
    if (marker.kind !== 'fields') continue;
    const roots = rootsOf.get(marker.file) ?? new Set();
    roots.add(marker.pointer);
    rootsOf.set(marker.file, roots);
  }
  return tables.map(({ marker }) => {
    if (marker.kind === 'error-codes') return errorCodeRows();
    const schema = loadSchema(marker.file);
    const roots = rootsOf.get(marker.file) ?? new Set();
    const own = new Set([...roots].filter((p) => p !== marker.pointer));
    return fieldRows(schema, marker.pointer, marker.prefix, own, problems);
  });
}

/** @param {Marker} marker */
function describe(marker) {
  return marker.kind === 'fields' ? `${marker.file}#${marker.pointer}` : 'error-codes';
}

/**
 * Everything in the document's marked tables that differs from the schemas: a missing or extra row, a
 * cell that says something else, a field without a meaning.
 * @param {string} markdown @returns {string[]}
 */
export function tableProblems(markdown) {
  /** @type {string[]} */
  const problems = [];
  const tables = findTables(markdown);
  const expected = expectedRows(tables, problems);
  tables.forEach((table, i) => {
    const name = describe(table.marker);
    const want = expected[i] ?? [];
    const header = splitRow(markdown.split('\n')[table.start] ?? '');
    const wantHeader = table.marker.kind === 'fields' ? fieldsHeader : codesHeader;
    if (header.join('|') !== wantHeader.join('|')) {
      problems.push(`${name}: the header should be | ${wantHeader.join(' | ')} |`);
    }
    const found = new Map(table.rows.map((row) => [row.key, row]));
    for (const row of want) {
      const have = found.get(row.key);
      if (have === undefined) {
        problems.push(`${name}: no row for ${row.key}`);
        continue;
      }
      row.cells.forEach((cell, c) => {
        if ((have.cells[c] ?? '') !== cell) {
          problems.push(
            `${name}: ${row.key}: ${wantHeader[c]} should be "${cell}", not "${have.cells[c] ?? ''}"`,
          );
        }
      });
      if (table.marker.kind === 'fields' && (have.cells[row.cells.length] ?? '') === '') {
        problems.push(`${name}: ${row.key}: says nothing about what it means`);
      }
      if (have.cells.length !== wantHeader.length) {
        problems.push(`${name}: ${row.key}: has ${have.cells.length} cells, not ${wantHeader.length}`);
      }
    }
    const keys = new Set(want.map((row) => row.key));
    for (const row of table.rows) {
      if (!keys.has(row.key)) problems.push(`${name}: ${row.key} is not in the schema`);
    }
    if (new Set(table.rows.map((row) => row.key)).size !== table.rows.length) {
      problems.push(`${name}: a row is listed twice`);
    }
  });
  return problems;
}

/** The document with every marked table rewritten from the schemas. @param {string} markdown */
export function rewriteTables(markdown) {
  const lines = markdown.split('\n');
  const tables = findTables(markdown);
  const expected = expectedRows(tables, []);
  // From the last table up, so earlier line numbers stay valid.
  for (let i = tables.length - 1; i >= 0; i--) {
    const table = /** @type {Table} */ (tables[i]);
    const header = table.marker.kind === 'fields' ? fieldsHeader : codesHeader;
    const meanings = new Map(table.rows.map((row) => [row.key, row.cells[header.length - 1] ?? '']));
    const body = (expected[i] ?? []).map((row) => {
      const cells = table.marker.kind === 'fields' ? [...row.cells, meanings.get(row.key) ?? ''] : row.cells;
      return `| ${cells.join(' | ')} |`;
    });
    const rendered = [`| ${header.join(' | ')} |`, `| ${header.map(() => '---').join(' | ')} |`, ...body];
    if (table.end > table.start) lines.splice(table.start, table.end - table.start, ...rendered);
    else lines.splice(table.markerLine + 1, 0, ...rendered, '');
  }
  return lines.join('\n');
}

if (process.argv[1] && import.meta.filename === process.argv[1]) {
  const check = process.argv.includes('--check');
  const files = process.argv.slice(2).filter((arg) => arg !== '--check');
  let failed = false;
  for (const file of files) {
    const markdown = readFileSync(file, 'utf8');
    if (check) {
      const problems = tableProblems(markdown);
      for (const problem of problems) console.error(`${file}: ${problem}`);
      failed ||= problems.length > 0;
    } else {
      writeFileSync(file, rewriteTables(markdown));
      // Biome formats the docs (tables aligned); the check reads cells trimmed, so either layout passes.
      spawnSync(join(import.meta.dirname, '../node_modules/.bin/biome'), ['format', '--write', file], {
        stdio: 'inherit',
      });
      const left = tableProblems(readFileSync(file, 'utf8'));
      for (const problem of left) console.error(`${file}: ${problem}`);
    }
  }
  process.exit(failed ? 1 : 0);
}
