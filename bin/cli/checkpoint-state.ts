import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

// The auditor's memory: the latest checkpoint seen per log origin, one file per origin, so a later
// receipt's checkpoint can be checked for consistency with it (receipts.md step 5).

function fileOf(dir: string, origin: string): string {
  return join(dir, `${encodeURIComponent(origin)}.checkpoint`);
}

export function readHeldCheckpoint(dir: string, origin: string): string | undefined {
  try {
    return readFileSync(fileOf(dir, origin), 'utf8');
  } catch {
    return undefined;
  }
}

export function writeHeldCheckpoint(dir: string, origin: string, note: string): void {
  mkdirSync(dir, { recursive: true });
  const file = fileOf(dir, origin);
  writeFileSync(`${file}.tmp`, note);
  renameSync(`${file}.tmp`, file);
}
