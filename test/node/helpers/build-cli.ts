import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

// vitest globalSetup of the Node project: builds dist/valve-verify.js, which the CLI tests spawn.
export default function buildCli(): void {
  const root = join(import.meta.dirname, '../../..');
  const result = spawnSync('npm', ['run', '--silent', 'build:cli'], { cwd: root, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`npm run build:cli failed:\n${result.stdout}\n${result.stderr}`);
}
