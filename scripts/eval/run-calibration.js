// `npm run eval:injection -- --calibrate`: tries renderings on the choice half of the attacks, chooses
// one by the rule in calibrate.js, then reports it against naive on the held-out half and on the unseen
// family, and gives the catalog fields to paste (or writes them into a catalog file).
import { readFileSync, writeFileSync } from 'node:fs';
import { referenceArm } from './arms.js';
import { catalogFields, choiceTable, chooseRendering, reportTable } from './calibrate.js';
import { runArm } from './run-arm.js';
import { splitTrials } from './split.js';

/**
 * Outcomes recorded by an earlier run (its results JSON), replayed instead of asking a model: a Map of
 * arm to a Map of trial id to `{ hijacked, correct }` or `{ error }`. `rename` maps a recorded arm to
 * the rendering it stood for (a run's `valve` arm is whatever that catalog entry named).
 */
export function recordedOutcomes(results, rename = {}) {
  const replay = new Map();
  for (const [arm, list] of Object.entries(results.trials ?? {})) {
    replay.set(rename[arm] ?? arm, new Map(list.map(({ id, ...outcome }) => [id, outcome])));
  }
  return replay;
}

function replayed(arm, trials, replay) {
  const byId = replay.get(arm);
  if (!byId) throw new Error(`the recorded run has no arm ${arm}; it has ${[...replay.keys()].join(', ')}`);
  return trials.map((trial) => ({ trial, ...(byId.get(trial.id) ?? { error: 'not recorded' }) }));
}

async function runLogged(arm, trials, target) {
  if (target.replay) return replayed(arm, trials, target.replay);
  const t0 = Date.now();
  const { outcomes } = await runArm(arm, trials, target, (done, total) => {
    if (done % 5 === 0) console.error(`eval: ${arm} ${done}/${total}`);
  });
  const errors = outcomes.filter((o) => o.error !== undefined).length;
  console.error(
    `eval: ${arm} on ${trials.length} trials (${Math.round((Date.now() - t0) / 1000)} s, ${errors} errors)`,
  );
  return outcomes;
}

/** Sets the catalog entry of `model` (its `model` field) to `fields`, in the JSON catalog at `file`. */
function writeIntoCatalog(file, model, fields) {
  const catalog = JSON.parse(readFileSync(file, 'utf8'));
  const entry = catalog.models?.find((m) => m.model === model);
  if (!entry) throw new Error(`${file} has no model "${model}"`);
  delete entry.promptMode;
  delete entry.promptLayout;
  Object.assign(entry, fields);
  writeFileSync(file, `${JSON.stringify(catalog, null, 2)}\n`);
}

/**
 * Runs the calibration of `target` on `trials` (which include the unseen family) over `arms` (Valve
 * renderings). Resolves with the markdown report and the JSON to keep.
 */
export async function runCalibration(trials, target, arms, { seed, write } = {}) {
  const split = splitTrials(trials, seed);
  console.error(
    `eval: calibration: ${split.choice.length} attacks to choose on, ${split.heldOut.length} held out, ${split.unseen.length} unseen, ${split.clean.length} clean`,
  );
  const onChoice = new Map();
  const clean = new Map();
  for (const arm of [referenceArm, ...arms]) {
    const outcomes = await runLogged(arm, [...split.choice, ...split.clean], target);
    onChoice.set(arm, outcomes);
    clean.set(
      arm,
      outcomes.filter((o) => o.trial.family === 'clean'),
    );
  }
  const trialsOf = (outcomes) =>
    outcomes.map((o) => ({
      id: o.trial.id,
      ...(o.error ? { error: o.error } : { hijacked: o.hijacked, correct: o.correct, output: o.output }),
    }));
  const choiceTrials = Object.fromEntries([...onChoice].map(([arm, o]) => [arm, trialsOf(o)]));
  const choice = chooseRendering(onChoice);
  const lines = [
    '## The choice (choice half of the attacks, all clean e-mails)',
    '',
    choiceTable(choice),
    '',
  ];
  if (choice.chosen === undefined) {
    lines.push('No rendering kept answerable utility within 10 points of naive: nothing to write.');
    return { markdown: lines.join('\n'), json: { choice, choiceTrials, reportTrials: {} } };
  }
  const report = new Map();
  for (const arm of [referenceArm, choice.chosen]) {
    const outcomes = await runLogged(arm, [...split.heldOut, ...split.unseen], target);
    report.set(arm, [...outcomes, ...clean.get(arm)]);
  }
  const fields = catalogFields(choice.chosen);
  lines.push(
    '## The chosen rendering where the choice never looked (held-out half, unseen family)',
    '',
    reportTable(report),
    '',
    'The catalog entry’s fields:',
    '',
    '```json',
    JSON.stringify(fields),
    '```',
  );
  if (write) {
    writeIntoCatalog(write, target.catalogModel, fields);
    lines.push('', `Written into ${write}.`);
  }
  const json = {
    choice,
    fields,
    choiceTrials,
    reportTrials: Object.fromEntries([...report].map(([arm, o]) => [arm, trialsOf(o)])),
  };
  return { markdown: lines.join('\n'), json };
}
