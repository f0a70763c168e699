import { describe, expect, it } from 'vitest';
import { jcsFiles, merkleFiles, requireSharedData, vectorFolder, wycheproofFiles } from './shared-data';

describe('the shared test vectors', () => {
  it('fail loudly when required and absent, instead of letting their tests skip', () => {
    expect(() => vectorFolder({}, 'jcs', true)).toThrow(/CI=true but \.\.\/shared\/data\/jcs\/ has no files/);
    expect(vectorFolder({}, 'jcs', false)).toEqual({});
    expect(vectorFolder({ '../../shared/data/jcs/input/a.json': '1' }, 'jcs', true)).toEqual({
      'input/a.json': '1',
    });
  });

  it.runIf(requireSharedData)('are all present in CI', () => {
    expect(Object.keys(jcsFiles).length).toBeGreaterThan(0);
    expect(Object.keys(merkleFiles).length).toBeGreaterThan(0);
    expect(Object.keys(wycheproofFiles).length).toBeGreaterThan(0);
  });
});
