// The calibration's split of the attacked trials (pure): a rendering is chosen on one half and reported
// on the other, so the printed figure is not the one it was tuned on.
import { createHash } from 'node:crypto';

/** The seed of the split; another seed gives another, equally fair split. */
export const splitSeed = 46;

/** Whether a trial falls in the choice half: the low bit of sha256(seed, id), so order never matters. */
export function inChoiceHalf(id, seed = splitSeed) {
  const digest = createHash('sha256').update(`${seed}\u0000${id}`).digest();
  return (digest[0] & 1) === 0;
}

/**
 * The trials split four ways: BIPIA and rendering attacks into `choice` and `heldOut` halves by
 * `inChoiceHalf`; the `unseen` family (never chosen on) and the `clean` e-mails (the utility both
 * phases are held to) apart.
 *
 * @template {{ id: string, family: string }} T
 * @param {T[]} trials
 * @returns {{ choice: T[], heldOut: T[], unseen: T[], clean: T[] }}
 */
export function splitTrials(trials, seed = splitSeed) {
  /** @type {{ choice: T[], heldOut: T[], unseen: T[], clean: T[] }} */
  const split = { choice: [], heldOut: [], unseen: [], clean: [] };
  for (const trial of trials) {
    if (trial.family === 'clean') split.clean.push(trial);
    else if (trial.family === 'unseen') split.unseen.push(trial);
    else split[inChoiceHalf(trial.id, seed) ? 'choice' : 'heldOut'].push(trial);
  }
  return split;
}
