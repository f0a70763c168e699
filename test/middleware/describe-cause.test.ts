import { describe, expect, it } from 'vitest';
import { describeCause } from '../../src/middleware/describe-cause';

describe('describeCause', () => {
  it('names the error type and where it was thrown, never its message', () => {
    const error = new SyntaxError('Unexpected token in JSON at position 3: "Patient Jane Roe"');
    const described = describeCause(error);
    expect(described).toMatch(/^SyntaxError at /);
    expect(described).not.toContain('Jane Roe');
    expect(describeCause('a thrown string with content')).toBe('string');
  });
});
