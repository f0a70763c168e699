// What each vector must verify to, written out by hand from docs/receipt-format.md ("Verifying a
// bundle"), never computed by the verifier: a test that compared the verifier with its own output
// could not fail. The checks are listed in the order the specification runs them, with where a
// failure stops the run.

export type Verdict = 'verified' | 'not verified' | 'could not check' | 'fork';

export const EXIT_CODES: Record<Verdict, number> = {
  verified: 0,
  'not verified': 1,
  'could not check': 2,
  fork: 3,
};

export interface ExpectedCheck {
  check: string;
  ok: boolean;
  /** A failed check that could not be run (something it needs was not given), not a fault found. */
  unchecked?: true;
}

export interface Expected {
  verdict: Verdict;
  exitCode: number;
  checks: ExpectedCheck[];
}

/** The checks of the receipt itself; a failure of any of them ends the run. */
const RECEIPT_CHECKS = [
  'bundle.format',
  'jws.format',
  'jws.header',
  'jws.kid',
  'jws.signature',
  'payload.i-json',
  'payload.jcs',
  'payload.body',
  'jws.key-validity',
];

/** The names a v1 receipt commits to, in report order. */
export const V1_NAMES = [
  'req.task',
  'req.instructions',
  'req.context',
  'req.conversation',
  'req.tools',
  'req.output',
  'req.modelPolicy',
  'res.output',
  'res.toolCalls',
  'res.meta',
  'dec.model',
  'dec.trace',
];

/** The names the main v2 receipt commits to (three context items, two turns), in report order. */
export const MAIN_V2_NAMES = [
  'req.task',
  'req.instructions',
  'req.context',
  'req.context[0]',
  'req.context[1]',
  'req.context[2]',
  'req.conversation',
  'req.conversation[0]',
  'req.conversation[1]',
  'req.tools',
  'req.output',
  'req.modelPolicy',
  'res.output',
  'res.toolCalls',
  'res.meta',
  'dec.model',
  'dec.trace',
  'req.tenant',
];

export interface Run {
  /** The names the bundle opens, in the order the verifier reports them. */
  opened: readonly string[];
  /** The auditor names a tenant (`--tenant`). */
  tenant?: boolean;
  /** The auditor holds a checkpoint of the log (`--state`), so consistency is checked. */
  held?: boolean;
  /** Checks that fail: 'fault', or 'unchecked' for one that could not be run. */
  failing?: Record<string, 'fault' | 'unchecked'>;
}

/** Every check of a run, in order, up to the first failure that ends it. */
function checksOf(run: Run): ExpectedCheck[] {
  const failing = run.failing ?? {};
  const names = [
    ...RECEIPT_CHECKS,
    'payload.issuer',
    ...run.opened.map((name) => `open.${name}`),
    ...(run.tenant ? ['tenant'] : []),
    'proof.format',
    'log.checkpoint',
    'log.inclusion',
    ...(run.held ? ['log.consistency'] : []),
  ];
  // A failure of the receipt, of the proof's format or of the checkpoint ends the run there.
  const ending = new Set([...RECEIPT_CHECKS, 'proof.format', 'log.checkpoint']);
  const checks: ExpectedCheck[] = [];
  for (const check of names) {
    const failure = failing[check];
    if (failure === undefined) {
      checks.push({ check, ok: true });
      continue;
    }
    checks.push(failure === 'unchecked' ? { check, ok: false, unchecked: true } : { check, ok: false });
    if (ending.has(check)) break;
  }
  const unknown = Object.keys(failing).filter((name) => !names.includes(name));
  if (unknown.length > 0) throw new TypeError(`no such check in this run: ${unknown.join(', ')}`);
  return checks;
}

export function expectRun(verdict: Verdict, run: Run): Expected {
  return { verdict, exitCode: EXIT_CODES[verdict], checks: checksOf(run) };
}
