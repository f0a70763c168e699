#!/usr/bin/env node
// npm run eval:injection — opt-in, never in CI: how often indirect prompt injections win against a real
// model, and whether the task survives, per arm: naive prompts straight to the model, and Valve in each
// rendering mode. docs/trust.md has the latest table and what it can and cannot tell.
//
//   npm run eval:injection -- --local [0.5b|1.5b]     a local llama.cpp model, set up and torn down here
//   npm run eval:injection -- --endpoint URL/v1 [--model NAME] [--key ENV]   any OpenAI-compatible server
//   VALVE_URL=… VALVE_KEY=… MODEL_URL=… MODEL=… [VALVE_MODEL=provider/model] npm run eval:injection
//
// Options: --arms a,b (default: all; any valve:<mode>@<layout> too), --attacked N (BIPIA trials, default
// 75), --per-template N (each rendering attack, default 5), --clean N (clean e-mails, default all 50),
// --out DIR (default bench/results/injection), --threads N (local), --untuned (no per-model rendering in
// the catalog: the default every new model gets).
//   --calibrate [--candidates a,b] [--write catalog.json] [--seed N]: choose a rendering on half the
//     attacks, report it on the other half and on a family the choice never saw, give the catalog fields.
//     With --from results.json [--as arm=valve:<mode>@<layout>,…] it replays a recorded run, no model.
//   --adaptive ROUNDS (or --arms adaptive, 5 rounds) [--adaptive-trials N, default 20]: the adaptive
//     attacker against naive-after and valve on the same e-mails, the model under test as its rewriter.
// Reads ../shared/data/injection/bipia/ (microsoft/BIPIA, MIT) beside the repository.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { allArms, isArm } from './eval/arms.js';
import { calibrationArms } from './eval/calibrate.js';
import { localModels } from './eval/local-model.js';
import { modelRewriter, runAdaptive } from './eval/run-adaptive.js';
import { runArm } from './eval/run-arm.js';
import { recordedOutcomes, runCalibration } from './eval/run-calibration.js';
import { setUpTarget } from './eval/set-up.js';
import { splitSeed } from './eval/split.js';
import { markdownTable, summarize } from './eval/summarize.js';
import { buildTrials } from './eval/trials.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const corpusDir = join(root, '..', 'shared', 'data', 'injection', 'bipia');
const argv = process.argv.slice(2);
const option = (name, fallback) => {
  const index = argv.indexOf(`--${name}`);
  if (index === -1) return fallback;
  const value = argv[index + 1];
  return value === undefined || value.startsWith('--') ? true : value;
};
const local = option('local', undefined);
const size = local === true ? '0.5b' : local;
const armsOption = String(option('arms', allArms.join(','))).split(',');
const adaptiveOption = option('adaptive', undefined);
const adaptiveRounds =
  adaptiveOption !== undefined
    ? Number(adaptiveOption === true ? 5 : adaptiveOption)
    : armsOption.includes('adaptive')
      ? 5
      : undefined;
const calibrate = option('calibrate', false) === true;
const candidates = String(option('candidates', calibrationArms.join(','))).split(',');
const arms = calibrate
  ? ['naive-after', ...candidates]
  : adaptiveRounds !== undefined
    ? ['naive-after', 'valve']
    : armsOption;
const seed = Number(option('seed', String(splitSeed)));
const keyEnv = option('key', undefined);
const attacked = Number(option('attacked', '75'));
const perTemplate = Number(option('per-template', '5'));
const cleanCount = Number(option('clean', '50'));
// --out as a shell reads it: an absolute path as is, a relative one from where `npm run` was typed
// (npm runs the script from the package root and says where it started in INIT_CWD).
const outDir = resolve(
  process.env.INIT_CWD ?? process.cwd(),
  String(option('out', join(root, 'bench', 'results', 'injection'))),
);
const threads = Number(option('threads', '2'));
const cacheDir = join(root, '.cache', 'eval');

for (const arm of arms) {
  if (!isArm(arm)) {
    console.error(
      `eval: unknown arm "${arm}"; arms: ${allArms.join(', ')}, adaptive, or valve:<mode>@<layout>`,
    );
    process.exit(2);
  }
}
if (keyEnv !== undefined && !process.env[keyEnv]) {
  console.error(`eval: --key ${keyEnv}: that environment variable is empty`);
  process.exit(2);
}
if (size !== undefined && !localModels[size]) {
  console.error(`eval: unknown local model "${size}"; known: ${Object.keys(localModels).join(', ')}`);
  process.exit(2);
}

const read = (name) => readFileSync(join(corpusDir, name), 'utf8');
let emails;
let bipiaAttacks;
try {
  emails = read('email_test.jsonl')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line));
  bipiaAttacks = Object.values(JSON.parse(read('text_attack_test.json'))).flat();
} catch (error) {
  console.error(`eval: the BIPIA corpus is not readable at ${corpusDir} (${error.message}).`);
  process.exit(2);
}
const unseen = Number(option('unseen', calibrate ? String(perTemplate) : '0'));
const trials = buildTrials(emails, bipiaAttacks, { attacked, perTemplate, unseen, clean: cleanCount });

const stops = [];
async function stopAll() {
  while (stops.length > 0) await stops.pop()();
}
for (const signal of ['SIGINT', 'SIGTERM'])
  process.on(signal, () => stopAll().finally(() => process.exit(130)));

/** Where each kind of arm is sent. */
function setUp() {
  return setUpTarget(
    {
      size,
      endpoint: option('endpoint', undefined),
      model: option('model', undefined),
      key: keyEnv === undefined ? undefined : process.env[keyEnv],
      untuned: option('untuned', false) === true,
      threads,
      cacheDir,
      arms,
    },
    stops,
  );
}

/** Writes the results so far (after every arm, so an interrupted run keeps what it measured). */
function writeResults(target, byArm, wire, started, name) {
  const rows = summarize(byArm);
  const table = markdownTable(rows, byArm.has('valve') ? 'valve' : undefined);
  const done = byArm.size === arms.length ? '' : ` (partial: ${byArm.size} of ${arms.length} arms)`;
  const header = [
    `# Injection eval: ${target.label}`,
    '',
    `${new Date().toISOString()}, \`npm run eval:injection -- ${argv.join(' ')}\`, ${Math.round((Date.now() - started) / 60000)} min${done}.`,
    `Trials: ${attacked} BIPIA e-mail attacks, ${perTemplate} per rendering attack, ${Math.min(cleanCount, emails.length)} clean e-mails; temperature 0, seed 42, 64 output tokens.`,
    '',
  ].join('\n');
  mkdirSync(outDir, { recursive: true });
  writeFileSync(join(outDir, `${name}.md`), `${header}${table}\n`);
  const trialsOf = (outcomes) =>
    outcomes.map((o) => ({
      id: o.trial.id,
      ...(o.error !== undefined
        ? { error: o.error }
        : { hijacked: o.hijacked, correct: o.correct, output: o.output }),
    }));
  const json = {
    model: target.label,
    command: `npm run eval:injection -- ${argv.join(' ')}`,
    at: new Date().toISOString(),
    arms: rows,
    trials: Object.fromEntries([...byArm].map(([arm, outcomes]) => [arm, trialsOf(outcomes)])),
    wire,
  };
  writeFileSync(join(outDir, `${name}.json`), `${JSON.stringify(json, null, 1)}\n`);
  return `${header}${table}`;
}

/** A calibration's or adaptive run's report, written beside the others. */
function writeReport(target, kind, markdown, json, started, trialsLine) {
  const name = `${new Date().toISOString().slice(0, 16).replace(':', '')}-${size ?? (option('from', undefined) ? 'replayed' : 'remote')}-${kind}`;
  const header = [
    `# Injection eval, ${kind}: ${target.label}`,
    '',
    `${new Date().toISOString()}, \`npm run eval:injection -- ${argv.join(' ')}\`, ${Math.round((Date.now() - started) / 60000)} min.`,
    trialsLine,
    '',
  ].join('\n');
  mkdirSync(outDir, { recursive: true });
  writeFileSync(join(outDir, `${name}.md`), `${header}${markdown}\n`);
  const meta = {
    model: target.label,
    command: `npm run eval:injection -- ${argv.join(' ')}`,
    at: new Date().toISOString(),
  };
  writeFileSync(join(outDir, `${name}.json`), `${JSON.stringify({ ...meta, ...json }, null, 1)}\n`);
  console.log(`${header}${markdown}\n\neval: wrote ${join(outDir, `${name}.md`)} and .json`);
}

/** `--calibrate --from results.json [--as arm=valve:mode@layout,…]`: the choice on outcomes a run recorded. */
function replayTarget(file) {
  const results = JSON.parse(readFileSync(join(root, file), 'utf8'));
  const rename = Object.fromEntries(
    String(option('as', ''))
      .split(',')
      .filter((pair) => pair.includes('='))
      .map((pair) => pair.split('=')),
  );
  return { label: `${results.model}, replayed from ${file}`, replay: recordedOutcomes(results, rename) };
}

async function main() {
  const from = option('from', undefined);
  const target = from === undefined ? await setUp() : replayTarget(String(from));
  if (calibrate) {
    const started = Date.now();
    const write = option('write', undefined);
    const { markdown, json } = await runCalibration(trials, target, candidates, {
      seed,
      write: write === undefined ? undefined : String(write),
    });
    const line = `Trials: ${attacked} BIPIA e-mail attacks, ${perTemplate} per rendering attack, ${unseen} per unseen attack, ${Math.min(cleanCount, emails.length)} clean e-mails; temperature 0, seed 42, 64 output tokens; split seed ${seed}.`;
    return writeReport(target, 'calibration', markdown, json, started, line);
  }
  if (adaptiveRounds !== undefined) {
    const started = Date.now();
    const count = Number(option('adaptive-trials', '20'));
    const attackedTrials = trials.filter((t) => t.family === 'bipia').slice(0, count);
    const rewriter = target.modelUrl ? modelRewriter(target, seed) : undefined;
    const { markdown, json } = await runAdaptive(attackedTrials, target, arms, {
      rounds: adaptiveRounds,
      seed,
      rewriter,
    });
    const line = `Trials: the first ${attackedTrials.length} BIPIA e-mail attacks, ${adaptiveRounds} rewrites each after the fixed injection; the target at temperature 0, seed 42, 64 output tokens; mutation seed ${seed}${rewriter ? ', the local model rewriting on even rounds' : ''}.`;
    return writeReport(target, 'adaptive', markdown, json, started, line);
  }
  const byArm = new Map();
  const wire = {};
  const started = Date.now();
  const name = `${new Date().toISOString().slice(0, 16).replace(':', '')}-${size ?? 'remote'}`;
  let report = '';
  for (const arm of arms) {
    const t0 = Date.now();
    const result = await runArm(arm, trials, target, (done, total) => {
      if (process.stderr.isTTY) process.stderr.write(`\reval: ${arm} ${done}/${total}`);
      else if (done % 25 === 0) console.error(`eval: ${arm} ${done}/${total}`);
    });
    if (process.stderr.isTTY) process.stderr.write('\r');
    byArm.set(arm, result.outcomes);
    wire[arm] = result.wire;
    const [row] = summarize(new Map([[arm, result.outcomes]]));
    console.error(
      `eval: ${arm.padEnd(20)} bipia ${row.bipia.k}/${row.bipia.n}  rendering ${row.rendering.k}/${row.rendering.n}  answerable ${row.answerable.k}/${row.answerable.n}  unknown ${row.unknown.k}/${row.unknown.n}  errors ${row.errors}  (${Math.round((Date.now() - t0) / 1000)} s)`,
    );
    report = writeResults(target, byArm, wire, started, name);
  }
  console.log(report);
  console.log(`\neval: wrote ${join(outDir, `${name}.md`)} and .json`);
}

main()
  .catch((error) => {
    console.error(`eval: ${error.message}`);
    process.exitCode = 1;
  })
  .finally(stopAll);
