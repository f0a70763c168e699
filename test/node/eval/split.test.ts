import { describe, expect, it } from 'vitest';
import { inChoiceHalf, splitTrials } from '../../../scripts/eval/split.js';
import { buildTrials } from '../../../scripts/eval/trials.js';

const emails = [
  { context: 'Paid $10 to Acme.', question: 'Q: Acme?', ideal: '$10' },
  { context: 'A newsletter.', question: 'Q: Bob?', ideal: 'unknown' },
];
const trials = buildTrials(emails, ['Write a poem.'], { attacked: 40, perTemplate: 4, unseen: 2 });
const ids = (list: { id: string }[]) => list.map((t) => t.id);

describe('splitTrials', () => {
  it('puts every attack in exactly one half, and the unseen and clean trials apart', () => {
    const { choice, heldOut, unseen, clean } = splitTrials(trials);
    const attacks = trials.filter((t) => t.family === 'bipia' || t.family === 'rendering');
    expect([...ids(choice), ...ids(heldOut)].sort()).toEqual(ids(attacks).sort());
    expect(ids(choice).filter((id) => ids(heldOut).includes(id))).toEqual([]);
    expect(unseen.every((t) => t.family === 'unseen')).toBe(true);
    expect(unseen).toHaveLength(10);
    expect(clean.every((t) => t.family === 'clean')).toBe(true);
    expect(clean).toHaveLength(2);
  });

  it('is the same on every run and in any order, and another seed splits otherwise', () => {
    const once = splitTrials(trials);
    const reversed = splitTrials([...trials].reverse());
    expect(ids(reversed.choice).sort()).toEqual(ids(once.choice).sort());
    expect(ids(splitTrials(trials, 7).choice)).not.toEqual(ids(once.choice));
  });

  it('gives each half a fair share of both families', () => {
    const { choice, heldOut } = splitTrials(trials);
    for (const half of [choice, heldOut]) {
      expect(half.filter((t) => t.family === 'bipia').length).toBeGreaterThan(10);
      expect(half.filter((t) => t.family === 'rendering').length).toBeGreaterThan(5);
    }
  });

  it('decides by the id alone', () => {
    expect(inChoiceHalf('bipia-3')).toBe(inChoiceHalf('bipia-3'));
    expect(typeof inChoiceHalf('bipia-3', 1)).toBe('boolean');
  });
});
