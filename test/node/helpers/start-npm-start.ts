import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// `npm start` (scripts/dev.js) as a newcomer runs it, on a free port with its own state folder and
// .dev.vars, started once per test file: resolves when it has printed its key and curl line.

export interface NpmStart {
  child: ChildProcess;
  /** Its temporary folder: `state/` (the local state), `.dev.vars`. */
  work: string;
  /** Everything it printed so far, stdout and stderr. */
  output(): string;
  /**
   * Stops it if it still runs and removes its folder: SIGTERM first, which `npm start` answers by
   * disposing of its workerd (a SIGKILL would leave workerd running), SIGKILL only after 10 s.
   */
  cleanUp(): Promise<void>;
}

const root = join(import.meta.dirname, '../../..');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** Starts `npm start`; `devVars` is written to its .dev.vars first (npm start adds the secrets it lacks). */
export async function startNpmStart(devVars = ''): Promise<NpmStart> {
  const work = mkdtempSync(join(tmpdir(), 'valve-npm-start-'));
  if (devVars !== '') writeFileSync(join(work, '.dev.vars'), devVars);
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [
      'scripts/dev.js',
      `--port=${port}`,
      `--persist-to=${join(work, 'state')}`,
      `--dev-vars=${join(work, '.dev.vars')}`,
    ],
    { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setInterval(() => {
      if (/Try it:[\s\S]*-d '.*'\n/.test(output)) {
        clearInterval(timer);
        resolve();
      } else if (child.exitCode !== null) {
        clearInterval(timer);
        reject(new Error(`npm start exited ${child.exitCode}:\n${output}`));
      }
    }, 100);
  });
  return {
    child,
    work,
    output: () => output,
    cleanUp: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise<void>((done) => child.once('exit', () => done()));
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(timer);
      }
      rmSync(work, { recursive: true, force: true });
    },
  };
}

/** The development key and the URL of /v1/reason that `npm start` printed. */
export function printedKeyAndUrl(output: string): { key?: string; url?: string; body?: string } {
  return {
    key: /Development API key \(tenant "dev"\):\s+(vk_[A-Za-z0-9_-]{43})/.exec(output)?.[1],
    url: /curl -s (http:\/\/127\.0\.0\.1:\d+\/v1\/reason)/.exec(output)?.[1],
    body: /-d '(.*)'\n/.exec(output)?.[1],
  };
}
