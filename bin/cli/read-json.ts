import { readFileSync } from 'node:fs';
import { parseIJson } from '../../src/receipts/i-json';
import { UsageError } from './args';

/** Reads a JSON file strictly (I-JSON: no duplicate names), so what is verified is what the file says. */
export function readJsonFile(path: string, what: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    throw new UsageError(`cannot read the ${what} file ${path}`);
  }
  const parsed = parseIJson(text);
  if (!parsed.ok) {
    const problem = parsed.problems[0];
    throw new UsageError(
      `the ${what} file ${path} is not I-JSON (${problem?.problem} at "${problem?.path}")`,
    );
  }
  return parsed.value;
}
