import { describe, expect, it } from 'vitest';
import { nameMatches, resolveModelName } from '../../../src/doors/anthropic/model-names';
import { catalogOf, simModel } from '../../helpers/catalog-fixtures';

describe('the names a catalog model answers to', () => {
  it('matches exactly without a *, and with * as any run of characters', () => {
    expect(nameMatches('claude-haiku-4-5', 'claude-haiku-4-5')).toBe(true);
    expect(nameMatches('claude-haiku-4-5', 'claude-haiku-4-5-20251001')).toBe(false);
    expect(nameMatches('claude-sonnet-4-*', 'claude-sonnet-4-5-20250929')).toBe(true);
    expect(nameMatches('claude-sonnet-4-*', 'claude-sonnet-3-7')).toBe(false);
    expect(nameMatches('claude-*-4-*', 'claude-opus-4-1')).toBe(true);
    expect(nameMatches('*-haiku-*', 'claude-3-5-haiku-latest')).toBe(true);
    expect(nameMatches('a*a', 'a')).toBe(false);
    expect(nameMatches('*', 'anything')).toBe(true);
  });

  it('resolves a name to the first catalog model that answers it, and leaves aliases and ids alone', () => {
    const catalog = catalogOf([
      simModel('one', { answersTo: ['claude-*'] }),
      simModel('two', { answersTo: ['claude-opus-*'] }),
    ]);
    expect(resolveModelName(catalog, 'claude-opus-4-1')).toBe('sim/one');
    expect(resolveModelName(catalog, 'auto')).toBe('auto');
    expect(resolveModelName(catalog, 'sim/two')).toBe('sim/two');
    expect(resolveModelName(catalog, 'gpt-5')).toBeUndefined();
  });
});
