// Reads the field tables of docs/openai.md: for each top-level request field a row names, what the door
// does with it. A row's first cell names fields in backticks (`text.format` names `text`); a row whose
// first cell is not a field (`message \`name\``) is about something inside a message, and is skipped.

export type FieldKind = 'used' | 'accepted' | 'neutral only' | 'refused' | "Valve's own";

const kinds: readonly FieldKind[] = ['used', 'accepted', 'neutral only', 'refused', "Valve's own"];

export interface FieldRow {
  kind: FieldKind;
  /** What the row's second cell says, in full. */
  says: string;
}

export interface FieldTable {
  rows: Map<string, FieldRow>;
  /** Fields a row names on their own (not through a sub-field) more than once. */
  repeated: string[];
}

function cellsOf(line: string): string[] {
  return line
    .trim()
    .replace(/^\||\|$/g, '')
    .split('|')
    .map((cell) => cell.trim());
}

/** The table under the `## heading` of a Markdown document. */
export function fieldTableOf(doc: string, heading: string): FieldTable {
  const lines = doc.split('\n');
  const start = lines.indexOf(`## ${heading}`);
  if (start < 0) throw new Error(`docs/openai.md has no section "## ${heading}"`);
  const end = lines.findIndex((line, i) => i > start && line.startsWith('## '));
  const table = lines.slice(start + 1, end < 0 ? undefined : end).filter((line) => line.startsWith('|'));
  const rows = new Map<string, FieldRow>();
  const named = new Set<string>();
  const repeated: string[] = [];
  // The first line is the header, the second the rule under it.
  for (const line of table.slice(2)) {
    const [names = '', says = ''] = cellsOf(line);
    if (!names.startsWith('`')) continue;
    const kind = kinds.find((k) => says.startsWith(k));
    if (kind === undefined) throw new Error(`docs/openai.md: the row of ${names} says none of ${kinds}`);
    for (const [, name = ''] of names.matchAll(/`([^`]+)`/g)) {
      const field = name.split('.')[0] ?? name;
      const whole = field === name;
      if (whole && named.has(field)) repeated.push(field);
      if (whole) named.add(field);
      // A row naming the field itself wins over one naming a sub-field of it.
      if (whole || !rows.has(field)) rows.set(field, { kind, says });
    }
  }
  return { rows, repeated };
}
