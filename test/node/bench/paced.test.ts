import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { runPaced } from '../../../bench/lib/paced.js';

describe('runPaced', () => {
  it('keeps sending on schedule while answers are slow (open loop), and counts every answer', async () => {
    let inFlight = 0;
    let most = 0;
    let seen = 0;
    const server = createServer((req, res) => {
      req.resume();
      seen++;
      inFlight++;
      most = Math.max(most, inFlight);
      // Each answer takes five send intervals: a closed loop would never have two in flight.
      setTimeout(() => {
        inFlight--;
        res.end('{}');
      }, 50);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const result = await runPaced(
        { url: `http://127.0.0.1:${port}/`, headers: { 'content-type': 'application/json' }, body: '{}' },
        { rate: 100, durationS: 0.3, connections: 16 },
      );
      expect(result.requests).toBe(30);
      expect(result.ok).toBe(30);
      expect(seen).toBe(30);
      expect(most).toBeGreaterThan(1);
      expect(result.latencyMs.count).toBe(30);
      expect(result.latencyMs.p50).toBeGreaterThanOrEqual(50);
    } finally {
      server.close();
    }
  });
});
