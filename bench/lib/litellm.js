// The second peer gateway: LiteLLM's proxy (`litellm[proxy]` on PyPI), the gateway most teams run.
// The bench installs it itself, pinned, into a Python virtual environment of its own under
// .cache/bench/litellm/<version>/ (git-ignored, kept between runs, never a project dependency), and
// runs it with its own CLI (`litellm --config`, uvicorn with uvloop, as its documentation starts it)
// on a config that sends model `gpt-bench` to the fake upstream. It is measured as a plain proxy: every
// feature that would store, log or report something per request is off (`litellmFeaturesOff`).
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './peer.js';
import { killLeft, processTree, startServer, treeCpuSeconds } from './processes.js';

export const litellmPackage = 'litellm[proxy]';
/** Pinned: the version this bench was written and measured against (PyPI). */
export const litellmVersion = '1.108.7';
/**
 * uvicorn workers (`--num_workers`): the count that gave LiteLLM its best throughput on this
 * machine kind's two cores (bench/tools/litellm-workers.js, bench/results/2026-12-04-litellm-workers.md).
 */
export const litellmWorkers = 2;

/** What is off, and how, so that LiteLLM is measured as a plain proxy (docs/performance.md lists it). */
export const litellmFeaturesOff = [
  'no database (no DATABASE_URL): no virtual keys, spend logs, error logs or budgets; the master key alone authenticates',
  'no Redis and no cache',
  'telemetry off (LITELLM_TELEMETRY_DISABLED=true, LITELLM_TELEMETRY=False, litellm_settings.telemetry: false)',
  'no logging callbacks (success_callback, failure_callback and callbacks empty)',
  'log level ERROR (LITELLM_LOG=ERROR: no uvicorn access log), set_verbose false, JSON logs off (json_logs: false, JSON_LOGS unset)',
  'spend and error logs off (general_settings.disable_spend_logs, disable_error_logs)',
  'LITELLM_MODE=PRODUCTION (no .env read) in a temporary working folder',
];

/** A Python 3.10 or later on the PATH (LiteLLM's floor), or why there is none. */
function findPython() {
  for (const python of ['python3', 'python']) {
    const run = spawnSync(python, ['-c', 'import sys, venv; print("%d.%d" % sys.version_info[:2])'], {
      encoding: 'utf8',
    });
    if (run.status !== 0) continue;
    const [major, minor] = run.stdout.trim().split('.').map(Number);
    if (major === 3 && Number(minor) >= 10) return { python, version: run.stdout.trim() };
    return { reason: `${python} is ${run.stdout.trim()}; LiteLLM needs Python 3.10 or later` };
  }
  return { reason: 'no python3 with the venv module on the PATH' };
}

/**
 * Installs LiteLLM's proxy (once per version) into .cache/bench/litellm/<version>/venv and returns
 * its CLI; throws with the reason when Python or the package cannot be had.
 * @param {string} root the repository
 * @param {string} version
 * @returns {{ litellm: string, venv: string, python: string, installed: boolean, installMs: number }}
 */
export function installLitellm(root, version) {
  const dir = join(root, '.cache', 'bench', 'litellm', version);
  const venv = join(dir, 'venv');
  const litellm = join(venv, 'bin', 'litellm');
  const marker = join(dir, 'installed');
  const found = findPython();
  if (!('python' in found)) throw new Error(found.reason);
  if (existsSync(marker) && existsSync(litellm)) {
    return { litellm, venv, python: found.version, installed: false, installMs: 0 };
  }
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const began = performance.now();
  const create = spawnSync(found.python, ['-m', 'venv', venv], { encoding: 'utf8', timeout: 120_000 });
  if (create.status !== 0) {
    throw new Error(`${found.python} -m venv failed: ${(create.stderr ?? '').slice(-800)}`);
  }
  const install = spawnSync(
    join(venv, 'bin', 'python'),
    [
      '-m',
      'pip',
      'install',
      '--quiet',
      '--disable-pip-version-check',
      '--no-input',
      `${litellmPackage}==${version}`,
    ],
    { encoding: 'utf8', timeout: 900_000 },
  );
  if (install.status !== 0 || !existsSync(litellm)) {
    // pip's last ERROR line says why (no such version, no network, a build that failed); else its tail.
    const stderr = install.stderr ?? '';
    const error = stderr.split('\n').findLast((line) => line.startsWith('ERROR:'));
    throw new Error(
      `pip install ${litellmPackage}==${version} failed (${install.status ?? install.signal ?? install.error?.message}): ${(error ?? stderr).slice(-1500)}`,
    );
  }
  writeFileSync(marker, `${litellmPackage}==${version}\n`);
  return {
    litellm,
    venv,
    python: found.version,
    installed: true,
    installMs: Math.round(performance.now() - began),
  };
}

/**
 * The proxy's config: one model, `gpt-bench`, on the fake upstream (OpenAI's wire format, as Valve's
 * catalog and Portkey reach it), and every per-request store, log and report off.
 * @param {string} upstreamUrl
 */
export function litellmConfig(upstreamUrl) {
  return `model_list:
  - model_name: gpt-bench
    litellm_params:
      model: openai/gpt-bench
      api_base: ${upstreamUrl}/v1
      api_key: bench-key
litellm_settings:
  telemetry: false
  set_verbose: false
  json_logs: false
  success_callback: []
  failure_callback: []
  callbacks: []
general_settings:
  disable_spend_logs: true
  disable_error_logs: true
`;
}

/**
 * Waits until a process tree has stopped booting: its CPU over `windowMs` is under a tenth of that
 * time. The supervisor answers health checks as soon as one worker is up; the others may still be
 * importing, which would be counted against the first requests.
 * @param {number} pid @param {number} timeoutMs @param {number} [windowMs]
 */
async function settle(pid, timeoutMs, windowMs = 1000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const before = treeCpuSeconds(pid);
    await new Promise((resolve) => setTimeout(resolve, windowMs));
    if (treeCpuSeconds(pid) - before < windowMs / 10_000) return;
  }
}

/**
 * Starts the proxy on 127.0.0.1 with `workers` uvicorn workers, on a config pointing at `upstreamUrl`.
 * `pids()` is the whole process tree (supervisor and workers); `cpuSeconds()` is its CPU so far, the
 * proxy's, a worker that exited included.
 * @param {{ litellm: string }} install
 * @param {{ upstreamUrl: string, workers: number }} o
 */
export async function startLitellm(install, o) {
  const dir = mkdtempSync(join(tmpdir(), 'valve-bench-litellm-'));
  writeFileSync(join(dir, 'config.yaml'), litellmConfig(o.upstreamUrl));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const key = `sk-bench-${randomBytes(12).toString('hex')}`;
  // A clean environment: nothing of the caller's (a DATABASE_URL, a REDIS_HOST, a logging callback's
  // keys) can turn a feature on.
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: dir,
    LANG: 'C.UTF-8',
    LITELLM_MASTER_KEY: key,
    LITELLM_MODE: 'PRODUCTION',
    LITELLM_LOG: 'ERROR',
    LITELLM_TELEMETRY: 'False',
    LITELLM_TELEMETRY_DISABLED: 'true',
  };
  /** @type {number[]} */
  let tree = [];
  let server;
  try {
    server = await startServer(
      install.litellm,
      [
        '--config',
        join(dir, 'config.yaml'),
        '--host',
        '127.0.0.1',
        '--port',
        String(port),
        '--num_workers',
        String(o.workers),
      ],
      {
        cwd: dir,
        env,
        timeoutMs: 180_000,
        probe: async () => (await fetch(`${url}/health/liveliness`)).ok,
      },
    );
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const pid = Number(server.child.pid);
  // uvicorn starts every worker at once; wait for them all, then for the tree to go quiet.
  const deadline = Date.now() + 120_000;
  while (processTree(pid).length < (o.workers > 1 ? o.workers + 1 : 1) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  await settle(pid, 120_000);
  tree = processTree(pid);
  const stop = async () => {
    await server.stop();
    killLeft(tree);
    rmSync(dir, { recursive: true, force: true });
  };
  return { ...server, stop, url, key, pids: () => processTree(pid), cpuSeconds: () => treeCpuSeconds(pid) };
}
