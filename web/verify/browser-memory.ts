import type { CheckpointMemory } from '../../src/receipts/verify-held';

// The page's memory, as the CLI's state directory: the latest checkpoint per log origin and the
// pinned trust root, in this browser's localStorage (per page origin, so a saved copy opened from
// disk keeps its own).

const CHECKPOINT_PREFIX = 'valve-verify:checkpoint:';
export const TRUST_ROOT_KEY = 'valve-verify:trust-root';

export function storageMemory(storage: Storage): CheckpointMemory {
  return {
    read: (origin) => storage.getItem(CHECKPOINT_PREFIX + origin) ?? undefined,
    write: (origin, note) => storage.setItem(CHECKPOINT_PREFIX + origin, note),
  };
}

export function heldCheckpoints(storage: Storage): { origin: string; note: string }[] {
  const held: { origin: string; note: string }[] = [];
  for (let i = 0; i < storage.length; i++) {
    const key = storage.key(i);
    if (key?.startsWith(CHECKPOINT_PREFIX)) {
      held.push({ origin: key.slice(CHECKPOINT_PREFIX.length), note: storage.getItem(key) ?? '' });
    }
  }
  return held.sort((a, b) => a.origin.localeCompare(b.origin));
}

export function forgetCheckpoints(storage: Storage): void {
  for (const { origin } of heldCheckpoints(storage)) storage.removeItem(CHECKPOINT_PREFIX + origin);
}
