// Server processes of the bench: started as children, ready when they print one JSON line (or answer a
// probe), stopped by their own pid, and measured from /proc (peak resident memory, VmHWM).
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/**
 * @typedef {{ pid: number, name: string, peakKiB: number }} ProcessPeak
 * @typedef {{ child: import('node:child_process').ChildProcess, info: Record<string, unknown>, log: () => string, stop: () => Promise<void> }} Server
 */

/**
 * Starts `command args` and resolves once it prints a JSON line on stdout (or `probe` resolves true).
 * @param {string} command
 * @param {string[]} args
 * @param {{ cwd?: string, env?: NodeJS.ProcessEnv, timeoutMs: number, probe?: () => Promise<boolean> }} options
 * @returns {Promise<Server>}
 */

/**
 * Stops a child process with `signal`, and with SIGKILL if it is still running 5 s later.
 * @param {import('node:child_process').ChildProcess} child
 * @param {NodeJS.Signals} signal
 * @returns {Promise<void>}
 */
export function stopChild(child, signal) {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const killer = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => {
      clearTimeout(killer);
      resolve();
    });
    child.kill(signal);
  });
}

export function startServer(command, args, options) {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env ?? process.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout?.setEncoding('utf8');
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (text) => {
    err = (err + text).slice(-8000);
  });
  const stop = () => stopChild(child, 'SIGTERM');
  const log = () => `${out.slice(-2000)}\n${err}`.trim();
  return new Promise((resolve, reject) => {
    let done = false;
    /** @param {Record<string, unknown>} info */
    const ready = (info) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve({ child, info, log, stop });
    };
    /** @param {Error} error */
    const fail = (error) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      stop().then(() => reject(new Error(`${error.message}\n${log()}`)));
    };
    const timer = setTimeout(
      () => fail(new Error(`${command} did not start in ${options.timeoutMs} ms`)),
      options.timeoutMs,
    );
    child.on('error', fail);
    child.on('exit', (code) => fail(new Error(`${command} exited with ${code} before it was ready`)));
    child.stdout?.on('data', (text) => {
      out = (out + text).slice(-8000);
      const line = out.split('\n').find((l) => l.trim().startsWith('{'));
      if (line && !options.probe) {
        try {
          ready(JSON.parse(line));
        } catch {
          // not a whole line yet
        }
      }
    });
    if (options.probe) {
      const probe = options.probe;
      const poll = async () => {
        while (!done) {
          if (await probe().catch(() => false)) return ready({});
          await new Promise((r) => setTimeout(r, 100));
        }
      };
      poll();
    }
  });
}

/** @param {number} pid */
function statusOf(pid) {
  try {
    return readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return '';
  }
}

/** @param {number} pid @returns {number[]} */
function childrenOf(pid) {
  const found = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const status = statusOf(Number(entry));
    if (Number(/^PPid:\s*(\d+)/m.exec(status)?.[1]) === pid) found.push(Number(entry));
  }
  return found;
}

/**
 * Peak resident memory (VmHWM) of a process and each of its descendants, read while they run.
 * @param {number} pid
 * @returns {ProcessPeak[]}
 */
export function peakMemory(pid) {
  /** @type {ProcessPeak[]} */
  const peaks = [];
  const queue = [pid];
  while (queue.length > 0) {
    const next = /** @type {number} */ (queue.shift());
    const status = statusOf(next);
    if (status === '') continue;
    peaks.push({
      pid: next,
      name: /^Name:\s*(.+)$/m.exec(status)?.[1]?.trim() ?? '?',
      peakKiB: Number(/^VmHWM:\s*(\d+)/m.exec(status)?.[1] ?? 0),
    });
    queue.push(...childrenOf(next));
  }
  return peaks;
}

/**
 * The pids of a process's descendants named `name` (e.g. the workerd that Miniflare starts).
 * @param {number} pid
 * @param {string} name
 * @returns {number[]}
 */
export function descendantsNamed(pid, name) {
  return peakMemory(pid)
    .filter((p) => p.pid !== pid && p.name === name)
    .map((p) => p.pid);
}

/**
 * A process and all its descendants, parent first: every process whose CPU is a multi-process server's
 * (LiteLLM's uvicorn supervisor and its workers).
 * @param {number} pid
 * @returns {number[]}
 */
export function processTree(pid) {
  return peakMemory(pid).map((p) => p.pid);
}

/**
 * Kills the processes of `pids` that are still running, by their own pids: what is left of a server
 * whose supervisor was stopped before its workers (a SIGKILLed parent leaves them running).
 * @param {number[]} pids
 */
export function killLeft(pids) {
  for (const pid of pids) {
    if (statusOf(pid) === '') continue;
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone meanwhile
    }
  }
}

// Clock ticks per second of /proc/<pid>/stat's utime and stime: USER_HZ, 100 on Linux.
const TICKS_PER_SECOND = 100;

/**
 * CPU time (user + system) a process has used so far, in seconds; 10 ms resolution. Read before and
 * after a run, the difference is the server's own CPU for that run however busy the machine is.
 * @param {number} pid
 * @returns {number | null} null when /proc is not readable (not Linux, or the process is gone)
 */
export function cpuSeconds(pid) {
  const fields = statFields(`/proc/${pid}/stat`);
  return fields === null ? null : (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

/**
 * The fields of a `/proc/…/stat` file from the third on (state, ppid, …; `proc(5)` numbers them from
 * 1), or null when it cannot be read. The command name (field 2) is in parentheses and may hold spaces,
 * so the fields are counted after its end.
 * @param {string} path
 * @returns {string[] | null}
 */
export function statFields(path) {
  try {
    const stat = readFileSync(path, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

/**
 * The CPU seconds of a process tree: every live process's own, and what each has collected from
 * children it waited for (`cutime` and `cstime`), so that a worker that exits or is replaced between
 * two readings still counts. Read before and after a run, the difference is the whole server's.
 * @param {number} pid the tree's root
 * @returns {number} NaN when the root cannot be read
 */
export function treeCpuSeconds(pid) {
  if (statFields(`/proc/${pid}/stat`) === null) return Number.NaN;
  let ticks = 0;
  for (const member of processTree(pid)) {
    const fields = statFields(`/proc/${member}/stat`);
    if (fields === null) continue; // gone since the tree was read; its parent has collected it
    ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
  }
  return ticks / TICKS_PER_SECOND;
}

/**
 * The CPU seconds of several processes together (a server and its children); NaN when one of them
 * cannot be read.
 * @param {number[]} pids
 */
export function cpuSecondsOf(pids) {
  return pids.reduce((sum, pid) => sum + (cpuSeconds(pid) ?? Number.NaN), 0);
}

/**
 * The bytes the processes have caused to be written to storage so far (`write_bytes` in
 * `/proc/<pid>/io`, less `cancelled_write_bytes`: pages of files deleted or truncated before they were
 * written back, such as SQLite's temporary statement journals). NaN when a process's is unreadable. A
 * file on tmpfs is never written to storage and counts nothing.
 * @param {number[]} pids
 */
export function writeBytesOf(pids) {
  return pids.reduce((sum, pid) => {
    try {
      const io = readFileSync(`/proc/${pid}/io`, 'utf8');
      const written = Number(/^write_bytes:\s*(\d+)/m.exec(io)?.[1]);
      const cancelled = Number(/^cancelled_write_bytes:\s*(\d+)/m.exec(io)?.[1] ?? 0);
      return sum + written - cancelled;
    } catch {
      return Number.NaN;
    }
  }, 0);
}
