import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { splitRow } from '../../../scripts/doc-tables.js';
import { type Setting, settings } from '../../../src/settings';
import { readDocument, repoRoot } from './markdown';

// The settings table of docs/operating.md and wrangler.toml's [vars] say what src/settings.ts says, the
// list the code reads its defaults from: every variable listed once, none extra, each default as the
// code has it.

const page = 'docs/operating.md';
const markdown = readDocument(page);
const header = ['variable', 'default', 'what it sets'];

/** The rows of the first table under `## Settings`, by variable. */
function tableRows(doc: string): { name: string; cells: string[] }[] {
  const lines = doc.split('\n');
  const heading = lines.indexOf('## Settings');
  if (heading === -1) return [];
  let start = heading + 1;
  while (start < lines.length && !lines[start]?.startsWith('|')) start++;
  let end = start;
  while (end < lines.length && lines[end]?.startsWith('|')) end++;
  return lines.slice(start, end).map((line) => {
    const cells = splitRow(line);
    return { name: (cells[0] ?? '').replaceAll('`', ''), cells };
  });
}

/** What the code's default looks like in the table; undefined when the code has none. */
function defaultCell(setting: Setting): string | undefined {
  return setting.default === undefined ? undefined : `\`${setting.default}\``;
}

/** Everything in the table that differs from src/settings.ts. */
function settingsTableProblems(doc: string): string[] {
  const problems: string[] = [];
  const [head, , ...rows] = tableRows(doc);
  if (head?.cells.join('|') !== header.join('|')) {
    problems.push(`the header should be | ${header.join(' | ')} |`);
  }
  const listed: Record<string, Setting> = settings;
  for (const [name, setting] of Object.entries(listed)) {
    const found = rows.filter((row) => row.name === name);
    if (found.length === 0) problems.push(`no row for ${name}`);
    if (found.length > 1) problems.push(`${name} is listed ${found.length} times`);
    const [cell, meaning] = found[0]?.cells.slice(1) ?? [];
    if (cell === undefined) continue;
    const want = defaultCell(setting);
    if (want !== undefined && cell !== want) {
      problems.push(`${name}: default should be "${want}", not "${cell}"`);
    }
    if (want === undefined && cell.startsWith('`')) {
      problems.push(`${name}: the code has no default value, so its default cell says in words what happens`);
    }
    if (!meaning) problems.push(`${name}: says nothing about what it sets`);
  }
  for (const row of rows) {
    if (!(row.name in settings)) problems.push(`${row.name} is not in src/settings.ts`);
  }
  return problems;
}

/** wrangler.toml's `[vars]`, name to value. */
function wranglerVars(): Map<string, string> {
  const toml = readFileSync(join(repoRoot, 'wrangler.toml'), 'utf8');
  const section = /^\[vars\]\n([\s\S]*?)(?=^\[)/m.exec(toml)?.[1] ?? '';
  const vars = new Map<string, string>();
  for (const line of section.split('\n')) {
    const entry = /^([A-Z0-9_]+)\s*=\s*"(.*)"\s*$/.exec(line);
    if (entry) vars.set(entry[1] ?? '', entry[2] ?? '');
  }
  return vars;
}

/** The page with the row of `name` changed by `change`. */
function withRow(name: string, change: (cells: string[]) => string[] | undefined): string {
  const lines = markdown.split('\n');
  const i = lines.findIndex((line) => line.startsWith(`| \`${name}\``));
  expect(i, name).toBeGreaterThan(-1);
  const cells = change(splitRow(lines[i] ?? ''));
  if (cells === undefined) lines.splice(i, 1);
  else lines[i] = `| ${cells.join(' | ')} |`;
  return lines.join('\n');
}

describe('the settings table of docs/operating.md', () => {
  it('lists every setting of src/settings.ts with the default the code uses, and no other', () => {
    expect(tableRows(markdown).length).toBe(Object.keys(settings).length + 2);
    expect(settingsTableProblems(markdown)).toEqual([]);
  });

  it('catches a wrong default, a missing row, an extra row and a blank meaning', () => {
    expect(
      settingsTableProblems(withRow('MAX_BODY_BYTES', (c) => [c[0] ?? '', '`1000000`', c[2] ?? ''])),
    ).toEqual(['MAX_BODY_BYTES: default should be "`1048576`", not "`1000000`"']);
    expect(settingsTableProblems(withRow('LOG_ORIGIN', () => undefined))).toEqual(['no row for LOG_ORIGIN']);
    expect(
      settingsTableProblems(withRow('LOG_ORIGIN', (c) => ['`LOG_ORIGN`', c[1] ?? '', c[2] ?? ''])),
    ).toEqual(['no row for LOG_ORIGIN', 'LOG_ORIGN is not in src/settings.ts']);
    expect(settingsTableProblems(withRow('VALVE_CATALOG', (c) => [c[0] ?? '', '`{}`', c[2] ?? '']))).toEqual([
      'VALVE_CATALOG: the code has no default value, so its default cell says in words what happens',
    ]);
    expect(settingsTableProblems(withRow('VALVE_ISSUER', (c) => [c[0] ?? '', c[1] ?? '', '']))).toEqual([
      'VALVE_ISSUER: says nothing about what it sets',
    ]);
  });
});

describe("wrangler.toml's [vars]", () => {
  it('are the settings of src/settings.ts, no more, no fewer', () => {
    expect([...wranglerVars().keys()].sort()).toEqual(Object.keys(settings).sort());
  });

  it('are each empty or the default the code has, where it has one', () => {
    const listed: Record<string, Setting> = settings;
    const differing = [...wranglerVars()].filter(([name, value]) => {
      const fallback = listed[name]?.default;
      return value !== '' && fallback !== undefined && value !== String(fallback);
    });
    expect(differing).toEqual([]);
  });
});
