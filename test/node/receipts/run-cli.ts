import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const cli = join(import.meta.dirname, '../../../bin/valve-verify.js');
// The CLI remembers checkpoints under $XDG_STATE_HOME; tests never touch the real home directory.
const isolatedState = mkdtempSync(join(tmpdir(), 'valve-verify-xdg-'));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  env?: Record<string, string>;
  cwd?: string;
  /** Kills the CLI after this long (code null), so a CLI that hangs fails its test instead of stalling it. */
  killAfterMs?: number;
}

/** Runs `node bin/valve-verify.js …` as its own process, as an auditor would. */
export function runCli(args: string[], options: CliOptions = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      cwd: options.cwd,
      env: { ...process.env, XDG_STATE_HOME: isolatedState, ...options.env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const deadline =
      options.killAfterMs === undefined
        ? undefined
        : setTimeout(() => child.kill('SIGKILL'), options.killAfterMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(deadline);
      resolve({ code, stdout, stderr });
    });
  });
}
