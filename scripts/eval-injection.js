#!/usr/bin/env node
// npm run eval:injection — opt-in, never in CI: how often indirect prompt injections win against a real
// model, and whether the task survives, per arm: naive prompts straight to the model, and Valve in each
// rendering mode. docs/trust.md has the latest table and what it can and cannot tell.
//
//   npm run eval:injection -- --local [0.5b|1.5b]     a local llama.cpp model, set up and torn down here
//   VALVE_URL=… VALVE_KEY=… MODEL_URL=… MODEL=… [VALVE_MODEL=provider/model] npm run eval:injection
//
// Options: --arms a,b (default: all), --attacked N (BIPIA trials, default 75), --per-template N (each
// rendering attack, default 5), --clean N (clean e-mails, default all 50), --out DIR (default bench/results/injection), --threads N (local).
// Reads ../shared/data/injection/bipia/ (microsoft/BIPIA, MIT) beside the repository.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { allArms, directArms } from './eval/arms.js';
import {
  localCatalog,
  localModels,
  prepareModel,
  prepareServer,
  startModelServer,
  startValve,
} from './eval/local-model.js';
import { startRecordProxy } from './eval/record-proxy.js';
import { runArm } from './eval/run-arm.js';
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
const arms = String(option('arms', allArms.join(','))).split(',');
const attacked = Number(option('attacked', '75'));
const perTemplate = Number(option('per-template', '5'));
const cleanCount = Number(option('clean', '50'));
const outDir = join(root, String(option('out', join('bench', 'results', 'injection'))));
const threads = Number(option('threads', '2'));
const cacheDir = join(root, '.cache', 'eval');

for (const arm of arms) {
  if (!allArms.includes(arm)) {
    console.error(`eval: unknown arm "${arm}"; arms: ${allArms.join(', ')}`);
    process.exit(2);
  }
}
if (size !== undefined && !localModels[size]) {
  console.error(`eval: unknown local model "${size}"; known: ${Object.keys(localModels).join(', ')}`);
  process.exit(2);
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
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
const trials = buildTrials(emails, bipiaAttacks, { attacked, perTemplate, clean: cleanCount });

const stops = [];
async function stopAll() {
  while (stops.length > 0) await stops.pop()();
}
for (const signal of ['SIGINT', 'SIGTERM'])
  process.on(signal, () => stopAll().finally(() => process.exit(130)));

/** Where each kind of arm is sent. */
async function setUp() {
  if (size === undefined) {
    const target = {
      valveUrl: process.env.VALVE_URL ?? 'http://127.0.0.1:8787',
      valveKey: process.env.VALVE_KEY,
      modelUrl: process.env.MODEL_URL,
      model: process.env.MODEL,
      pinned: process.env.VALVE_MODEL,
      label: process.env.VALVE_MODEL ?? 'the running Valve',
    };
    if (arms.some((a) => !directArms.includes(a)) && !target.valveKey) {
      throw new Error('set VALVE_KEY (scope "reason") and VALVE_URL of a running Valve, or use --local');
    }
    if (arms.some((a) => directArms.includes(a)) && !(target.modelUrl && target.model)) {
      throw new Error(
        'the naive arms call the model directly: set MODEL_URL (…/v1) and MODEL, or use --arms',
      );
    }
    return target;
  }
  const python = prepareServer(cacheDir);
  const model = await prepareModel(cacheDir, size);
  console.error(`eval: starting llama-server with ${model.name}`);
  const server = await startModelServer(python, model.path, await freePort(), threads);
  stops.push(server.stop);
  const proxy = await startRecordProxy(server.url);
  stops.push(proxy.close);
  const work = join(tmpdir(), `valve-eval-${process.pid}`);
  console.error('eval: starting Valve (npm start) with the local model as its catalog');
  const valve = await startValve(work, await freePort(), localCatalog(proxy.url, size));
  stops.push(valve.stop);
  return {
    valveUrl: valve.url,
    valveKey: valve.key,
    modelUrl: `${server.url}/v1`,
    model: 'local',
    pinned: `local/qwen2.5-coder-${size}`,
    label: model.name,
    proxy,
  };
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

async function main() {
  const target = await setUp();
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
