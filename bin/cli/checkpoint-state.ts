import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { CheckpointMemory } from '../../src/receipts/verify-held';

// The auditor's memory: the latest checkpoint seen per log origin, one file per origin, so a later
// receipt's checkpoint can be checked for consistency with it. It lives in the XDG state directory
// (https://specifications.freedesktop.org/basedir-spec/latest/), not in whatever folder the CLI runs
// in, so running from another folder never forgets what was seen.

export function defaultStateDir(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_STATE_HOME?.startsWith('/') ? env.XDG_STATE_HOME : join(homedir(), '.local', 'state');
  return join(base, 'valve-verify');
}

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
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = fileOf(dir, origin);
  writeFileSync(`${file}.tmp`, note);
  renameSync(`${file}.tmp`, file);
}

export function fileMemory(dir: string): CheckpointMemory {
  return {
    read: (origin) => readHeldCheckpoint(dir, origin),
    write: (origin, note) => writeHeldCheckpoint(dir, origin, note),
  };
}
