// Verifiers report what they checked instead of throwing: an auditor wants the failed check, not a stack.
export type CheckResult<T> = { ok: true; value: T } | { ok: false; reason: string };

export function pass<T>(value: T): CheckResult<T> {
  return { ok: true, value };
}

export function fail<T = never>(reason: string): CheckResult<T> {
  return { ok: false, reason };
}
