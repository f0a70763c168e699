import { defineConfig } from 'vitest/config';

// Micro-benchmarks of the pure modules (renderer, planner, receipts, tree, log), in Node with tinybench.
// Each file measures a baseline in the same run, so results are read as ratios, not absolute times.
// `npm run bench` runs them after the end-to-end load runs and folds their results in (bench/run.js).
export default defineConfig({
  test: {
    name: 'bench',
    environment: 'node',
    include: [],
    benchmark: { include: ['bench/**/*.bench.ts'] },
  },
});
