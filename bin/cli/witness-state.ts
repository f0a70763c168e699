import { closeSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { z } from 'zod';
import type { WitnessedHead, WitnessStore } from '../../src/witness/witness';
import { UsageError } from './args';

// The witness's memory: for each log, the latest checkpoint it cosigned, and the signed checkpoints it
// refused (evidence of a log showing two histories), in one JSON file replaced atomically and synced
// to disk before the witness answers, as c2sp.org/tlog-witness requires.

const stateSchema = z.strictObject({
  heads: z.record(
    z.string(),
    z.strictObject({ size: z.number().int().min(0), root: z.string(), checkpoint: z.string() }),
  ),
  refused: z.array(
    z.strictObject({ origin: z.string(), checkpoint: z.string(), reason: z.string(), at: z.string() }),
  ),
});
type WitnessState = z.infer<typeof stateSchema>;

function readState(path: string): WitnessState {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { heads: {}, refused: [] };
    throw new UsageError(`cannot read the witness state ${path}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new UsageError(`the witness state ${path} is not JSON`);
  }
  const parsed = stateSchema.safeParse(json);
  if (!parsed.success) throw new UsageError(`the witness state ${path} is not a valve-witness state file`);
  return parsed.data;
}

function writeDurably(path: string, text: string): void {
  const tmp = `${path}.tmp`;
  const fd = openSync(tmp, 'w', 0o600);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
}

/** A WitnessStore kept in the JSON file `path` (created on the first cosignature). */
export function fileWitnessStore(path: string): WitnessStore & { state(): WitnessState } {
  const state = readState(path);
  const save = () => writeDurably(path, `${JSON.stringify(state, null, 2)}\n`);
  return {
    state: () => state,
    head: (origin: string): WitnessedHead | undefined => state.heads[origin],
    save(origin: string, head: WitnessedHead) {
      state.heads[origin] = head;
      save();
    },
    refused(origin: string, checkpoint: string, reason: string) {
      state.refused.push({ origin, checkpoint, reason, at: new Date().toISOString() });
      save();
    },
  };
}
