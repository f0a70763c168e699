import { defineConfig } from 'vitest/config';

// The stream time-to-first-byte measurement (bench/stream-ttfb.ts): Node, one file, generous timeouts.
export default defineConfig({
  test: {
    name: 'stream-ttfb',
    environment: 'node',
    include: ['bench/stream-ttfb.run.test.ts'],
    testTimeout: 600_000,
    hookTimeout: 120_000,
  },
});
