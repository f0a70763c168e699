#!/usr/bin/env node
// Fetches Claude Code's native binary for test/node/anthropic/claude-code.test.ts into the git-ignored
// .cache/claude-code/: the npm package @anthropic-ai/claude-code-linux-x64, pinned by version and
// integrity below. It is the platform package that the wrapper @anthropic-ai/claude-code lists as an
// optional dependency; the wrapper itself needs Node 22, the binary no Node at all. `npm pack` takes it
// from the npm registry, no script of it runs, and it is unpacked as it is. Run by `npm run
// claude-code:setup` and .ci/run, which exports CLAUDE_CODE_BIN; a second run with the binary in place
// fetches nothing. Prints the binary's path.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const name = '@anthropic-ai/claude-code-linux-x64';
const version = '2.1.332';
const integrity =
  'sha512-f4JWhzwYutJIHScC7/dYOPX6s28tt7ZADhsOi8zwOHq5fFPEuUeChh2NMfinSg0GrUckYxaeebC4h0DqiKzLcw==';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dir = join(root, '.cache', 'claude-code');
const pkg = join(dir, 'package');
const claudeCodeBin = join(pkg, 'claude');

function installedVersion() {
  if (!existsSync(claudeCodeBin)) return undefined;
  return JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')).version;
}

if (process.platform !== 'linux' || process.arch !== 'x64') {
  console.error(`Claude Code's test binary is pinned for linux-x64, not ${process.platform}-${process.arch}`);
  process.exit(1);
}

if (installedVersion() !== version) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const [packed] = JSON.parse(
    execFileSync('npm', ['pack', `${name}@${version}`, '--json', '--pack-destination', dir], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    }),
  );
  const tarball = join(dir, packed.filename);
  const digest = `sha512-${createHash('sha512').update(readFileSync(tarball)).digest('base64')}`;
  if (digest !== integrity) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`${name}@${version}: the tarball's integrity is ${digest}, not the pinned ${integrity}`);
  }
  execFileSync('tar', ['-xzf', tarball, '-C', dir]);
  rmSync(tarball);
  if (installedVersion() !== version) throw new Error(`${name}@${version} did not unpack a claude binary`);
}
console.log(claudeCodeBin);
