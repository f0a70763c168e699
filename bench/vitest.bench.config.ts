import { defineConfig } from 'vitest/config';

// Micro-benchmarks of the pure modules (renderer, planner, receipts, tree), in Node with tinybench.
// Each file measures a baseline in the same run, so results are read as ratios, not absolute times.
export default defineConfig({
  test: {
    name: 'bench',
    environment: 'node',
    include: [],
    benchmark: { include: ['bench/micro/**/*.bench.ts'] },
  },
});
