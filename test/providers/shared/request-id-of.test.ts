import { describe, expect, it } from 'vitest';
import { requestIdOf } from '../../../src/providers/shared/send-request';

// Header values as a provider's answer can carry them (read from the wire, never built as a Response
// here, which workerd would warn about for a non-ASCII value).
const headersOf = (values: Record<string, string>) => ({ get: (name: string) => values[name] ?? null });

describe('requestIdOf', () => {
  it('reads the provider’s request id when it is one token of printable ASCII', () => {
    expect(requestIdOf(headersOf({ 'x-request-id': 'req_01HZX.9:a-b' }))).toBe('req_01HZX.9:a-b');
  });

  it('never returns a non-ASCII or malformed id, and takes the next request-id header instead', () => {
    const values = {
      'x-request-id': 'req\u200b_1',
      'request-id': 'req 1 <script>',
      'cf-ray': '8f1e2d3c4b5a6978-AMS',
    };
    expect(requestIdOf(headersOf(values))).toBe('8f1e2d3c4b5a6978-AMS');
    expect(requestIdOf(headersOf({ 'x-request-id': 'ｒｅｑ１' }))).toBeUndefined();
    expect(requestIdOf(headersOf({ 'request-id': 'r'.repeat(129) }))).toBeUndefined();
  });
});
