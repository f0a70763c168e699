// Unthrottled load with wrk (Debian's `wrk`, `wrk -t1 -cN`), the tool the figures were measured
// with: one C thread, far less CPU per request than a Node load generator sharing the same two cores.
// `ensureWrk` finds it or, as root with apt-get, installs it; without it the harness falls back to
// autocannon (bench/lib/load.js) and says so in the results.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** @returns {string | null} wrk's version line, or null when it is not on the PATH */
function wrkVersion() {
  const run = spawnSync('wrk', ['-v'], { encoding: 'utf8' });
  if (run.error) return null;
  return /wrk [^\s]+/.exec(`${run.stdout}${run.stderr}`)?.[0] ?? 'wrk';
}

/**
 * wrk's version, installing it with apt-get first when it is missing and this process is root.
 * @param {(message: string) => void} say
 * @returns {string | null}
 */
export function ensureWrk(say) {
  const found = wrkVersion();
  if (found || process.getuid?.() !== 0) return found;
  say('wrk not found; installing it with apt-get (Debian package `wrk`)');
  const install = spawnSync('apt-get', ['install', '-y', '-q', 'wrk'], {
    encoding: 'utf8',
    timeout: 180_000,
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  if (install.status !== 0) say(`apt-get install wrk failed: ${(install.stderr ?? '').slice(-300)}`);
  return wrkVersion();
}

/** A Lua long string that cannot be closed by the text inside it. */
function luaString(/** @type {string} */ text) {
  let level = '';
  while (text.includes(`]${level}]`)) level += '=';
  return `[${level}[${text}]${level}]`;
}

/**
 * wrk's arguments for one run, and the folder holding its script (remove it after the run). The
 * script POSTs `target.body`; its `done` hook prints the summary as one JSON line, latencies in the
 * microseconds of wrk's own histogram.
 * @param {import('./load.js').Target} target
 * @param {{ connections: number, durationS: number }} shape
 */
function prepare(target, shape) {
  const dir = mkdtempSync(join(tmpdir(), 'valve-bench-wrk-'));
  const script = join(dir, 'post.lua');
  const headers = Object.entries(target.headers)
    .map(([name, value]) => `wrk.headers[ ${luaString(name)} ] = ${luaString(value)}`)
    .join('\n');
  writeFileSync(
    script,
    `wrk.method = "POST"
wrk.body = ${luaString(target.body)}
${headers}
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('{"requests":%d,"durationUs":%d,"status":%d,"connect":%d,"read":%d,"write":%d,"timeout":%d,"p50":%d,"p90":%d,"p99":%d,"mean":%f,"max":%d}\\n',
    summary.requests, summary.duration, e.status, e.connect, e.read, e.write, e.timeout,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.mean, latency.max))
end
`,
  );
  const args = ['-t1', `-c${shape.connections}`, `-d${shape.durationS}s`, '--timeout', '10s', '-s', script];
  return { dir, args: [...args, target.url] };
}

/**
 * The run's result from what wrk printed; throws when it failed or printed no summary.
 * @param {{ status: number | string | null, stdout: string, stderr: string }} run
 * @param {number} connections
 * @returns {import('./load.js').LoadResult}
 */
function resultOf(run, connections) {
  const line = run.stdout.split('\n').find((l) => l.startsWith('{"requests"'));
  if (run.status !== 0 || !line) {
    throw new Error(`wrk failed (${run.status}): ${(run.stderr || run.stdout).slice(-500)}`);
  }
  const r = JSON.parse(line);
  const seconds = r.durationUs / 1e6;
  const errors = r.connect + r.read + r.write + r.timeout;
  const ok = r.requests - r.status;
  const ms = (/** @type {number} */ us) => Math.round(us) / 1000;
  return {
    requests: r.requests,
    rps: Math.round((ok / seconds) * 10) / 10,
    ok,
    non2xx: r.status,
    errors,
    timeouts: r.timeout,
    durationS: Math.round(seconds * 100) / 100,
    offeredRate: null,
    connections,
    latencyMs: {
      count: r.requests,
      mean: ms(r.mean),
      p50: ms(r.p50),
      p90: ms(r.p90),
      p99: ms(r.p99),
      max: ms(r.max),
      percentiles: {},
    },
  };
}

/**
 * One unthrottled wrk run: `wrk -t1 -c<connections> -d<duration>s`, POSTing `target.body`.
 * @param {import('./load.js').Target} target
 * @param {{ connections: number, durationS: number }} shape
 * @returns {import('./load.js').LoadResult}
 */
export function runWrk(target, shape) {
  const { dir, args } = prepare(target, shape);
  try {
    const run = spawnSync('wrk', args, { encoding: 'utf8', timeout: (shape.durationS + 30) * 1000 });
    return resultOf(
      { status: run.status ?? run.signal, stdout: run.stdout ?? '', stderr: run.stderr ?? '' },
      shape.connections,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The same run without blocking this process, so that several targets can be loaded at once.
 * @param {import('./load.js').Target} target
 * @param {{ connections: number, durationS: number }} shape
 * @returns {Promise<import('./load.js').LoadResult>}
 */
export function startWrk(target, shape) {
  const { dir, args } = prepare(target, shape);
  return new Promise((resolve, reject) => {
    const wrk = spawn('wrk', args, { timeout: (shape.durationS + 30) * 1000 });
    let stdout = '';
    let stderr = '';
    wrk.stdout.setEncoding('utf8').on('data', (chunk) => {
      stdout += chunk;
    });
    wrk.stderr.setEncoding('utf8').on('data', (chunk) => {
      stderr += chunk;
    });
    wrk.on('error', reject);
    wrk.on('close', (code, signal) => {
      try {
        resolve(resultOf({ status: code ?? signal, stdout, stderr }, shape.connections));
      } catch (error) {
        reject(error);
      }
    });
  }).finally(() => rmSync(dir, { recursive: true, force: true }));
}
