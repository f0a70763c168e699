// The micro-benchmarks of the pure modules (bench/**/*.bench.ts, vitest bench with tinybench) and any
// extra measurement script another part of Valve adds (bench/log-appends.js, bench/log-shards.js,
// bench/witness-round.js, bench/stream-ttfb.js or bench/extra/*.js), folded into the bench's results.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

/**
 * @typedef {{ file: string, group: string, name: string, hz: number, meanMs: number, medianMs: number, p99Ms: number, rme: number, samples: number }} MicroResult
 */

/**
 * @param {string} root the repository
 * @param {number} timeoutS
 * @returns {{ ok: boolean, results: MicroResult[], error?: string, seconds: number }}
 */
export function runMicro(root, timeoutS) {
  const dir = mkdtempSync(join(tmpdir(), 'valve-bench-micro-'));
  const output = join(dir, 'micro.json');
  const began = performance.now();
  const run = spawnSync(
    join(root, 'node_modules', '.bin', 'vitest'),
    ['bench', '--run', '--config', 'bench/vitest.bench.config.ts', '--outputJson', output],
    {
      cwd: root,
      encoding: 'utf8',
      timeout: timeoutS * 1000,
      env: { ...process.env, CI: '1', NO_COLOR: '1' },
    },
  );
  const seconds = Math.round((performance.now() - began) / 100) / 10;
  try {
    if (!existsSync(output)) {
      return {
        ok: false,
        results: [],
        seconds,
        error: `vitest bench wrote no results (${run.status ?? run.signal}): ${(run.stderr || run.stdout || '').slice(-1500)}`,
      };
    }
    /** @type {{ files: { filepath: string, groups: { fullName: string, benchmarks: { name: string, hz: number, mean: number, median: number, p99: number, rme: number, sampleCount: number }[] }[] }[] }} */
    const report = JSON.parse(readFileSync(output, 'utf8'));
    const round = (/** @type {number} */ x, /** @type {number} */ digits) => Number(x.toPrecision(digits));
    const results = report.files.flatMap((file) =>
      file.groups.flatMap((group) =>
        group.benchmarks.map((b) => ({
          file: relative(root, file.filepath),
          group: group.fullName.split(' > ').slice(1).join(' > '),
          name: b.name,
          hz: round(b.hz, 4),
          meanMs: round(b.mean, 4),
          medianMs: round(b.median, 4),
          p99Ms: round(b.p99, 4),
          rme: round(b.rme, 3),
          samples: b.sampleCount,
        })),
      ),
    );
    return {
      ok: run.status === 0,
      results,
      seconds,
      ...(run.status !== 0 && { error: `vitest exited ${run.status}` }),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Extra measurement scripts: plain JS run with Node as `node <file> [--quick] --valve-url=… --valve-key=…
 * --upstream=…`, each printing one JSON object as its last stdout line (free-form; numbers it wants
 * reported go in `metrics: [{ name, value, unit, target? }]`).
 * @param {string} root
 * @param {{ quick: boolean, valveUrl?: string, valveKey?: string, upstream?: string, timeoutS: number }} context
 */
export function runExtras(root, context) {
  const bench = join(root, 'bench');
  const candidates = [
    ...readdirSync(bench)
      .filter((f) => /^(log-appends|log-shards|witness-round|stream-ttfb)\.(m?js)$/.test(f))
      .map((f) => join(bench, f)),
    ...(existsSync(join(bench, 'extra'))
      ? readdirSync(join(bench, 'extra'))
          .filter((f) => /\.m?js$/.test(f))
          .map((f) => join(bench, 'extra', f))
      : []),
  ];
  return candidates.map((file) => {
    const args = [
      file,
      ...(context.quick ? ['--quick'] : []),
      ...(context.valveUrl ? [`--valve-url=${context.valveUrl}`, `--valve-key=${context.valveKey}`] : []),
      ...(context.upstream ? [`--upstream=${context.upstream}`] : []),
    ];
    const run = spawnSync(process.execPath, args, {
      cwd: root,
      encoding: 'utf8',
      timeout: context.timeoutS * 1000,
    });
    const last = (run.stdout ?? '').trim().split('\n').pop() ?? '';
    try {
      return { file: relative(root, file), ok: run.status === 0, result: JSON.parse(last) };
    } catch {
      return {
        file: relative(root, file),
        ok: false,
        error: `exit ${run.status ?? run.signal}; no JSON line: ${(run.stderr || last).slice(-800)}`,
      };
    }
  });
}
