#!/usr/bin/env node
// Checks the committed worker-configuration.d.ts against what `npm run types` generates now, so a
// binding, a variable or a wrangler/workerd upgrade that changes Env cannot go unnoticed; run by
// `npm run typecheck`, offline. `wrangler types --check` is not used: it compares a hash computed from
// the developer's own .dev.vars, whose secrets (a provider key, say) differ from one clone to the next,
// whereas the `types` script reads only the secret names in scripts/secret-names.env.
//
// The file is generated beside the real one (the path of `./src/index` in it depends on the folder),
// compared line for line, and removed. It starts as a copy of the committed one: wrangler keeps the
// runtime types of the file it writes over when their header (workerd version, compatibility date and
// flags) is still the one it would write, as `wrangler types --check` does, instead of starting workerd
// for seconds to list them again. Exit 1 names the first line that differs.
import { spawn } from 'node:child_process';
import { copyFileSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const committedName = 'worker-configuration.d.ts';
const scratchName = '.worker-configuration.check.d.ts';

/**
 * The `types` script with the scratch path as its first argument: after the options, `--env-file`
 * (a list) would take the path for one more env file.
 * @param {string} command the `types` script, e.g. `wrangler types --strict-vars=false`
 * @param {string} scratch
 */
export function scratchCommand(command, scratch) {
  const [program, subcommand, ...options] = command.split(/\s+/);
  if (program !== 'wrangler' || subcommand !== 'types')
    throw new Error(`not a wrangler types command: ${command}`);
  return [program, subcommand, scratch, ...options];
}

/**
 * Where `committed` differs from `generated`, or undefined when they agree. wrangler quotes its command
 * line in the header, so there the scratch command is put back to the `types` script first.
 * @param {string} committed
 * @param {string} generated written by `scratchCommand(command, scratch)`
 * @param {string} command the `types` script
 * @param {string} scratch the path the generated file was written to
 */
export function typesDifference(committed, generated, command, scratch) {
  const ran = scratchCommand(command, scratch).join(' ');
  const expected = generated.replace(`\`${ran}\``, `\`${command}\``).split('\n');
  const actual = committed.split('\n');
  const length = Math.max(expected.length, actual.length);
  for (let i = 0; i < length; i++) {
    if (expected[i] !== actual[i]) {
      const show = (line) => (line === undefined ? '(end of file)' : line.slice(0, 200));
      return `line ${i + 1}: committed ${show(actual[i])}\n  generated ${show(expected[i])}`;
    }
  }
  return undefined;
}

/** Runs `command` (the `types` script) with the scratch path; resolves with its output when it fails. */
function generate(command) {
  const [program, ...args] = scratchCommand(command, scratchName);
  return new Promise((resolve, reject) => {
    const child = spawn(join(root, 'node_modules', '.bin', program), args, {
      cwd: root,
      // No telemetry and no update check: the check runs offline and prints nothing when it passes.
      env: { ...process.env, WRANGLER_SEND_METRICS: 'false', WRANGLER_LOG: 'error' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(output))));
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const command = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts.types;
  try {
    copyFileSync(join(root, committedName), join(root, scratchName));
    await generate(command);
    const difference = typesDifference(
      readFileSync(join(root, committedName), 'utf8'),
      readFileSync(join(root, scratchName), 'utf8'),
      command,
      scratchName,
    );
    if (difference !== undefined) {
      console.error(
        `valve: ${committedName} is out of date; run \`npm run types\` and commit it.\n  ${difference}`,
      );
      process.exitCode = 1;
    }
  } catch (error) {
    console.error(`valve: \`${command}\` failed:\n${error instanceof Error ? error.message : error}`);
    process.exitCode = 1;
  } finally {
    rmSync(join(root, scratchName), { force: true });
  }
}
