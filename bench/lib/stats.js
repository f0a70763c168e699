// Percentiles of raw latencies (autocannon's own histogram rounds to whole milliseconds, too coarse
// for an overhead measured in fractions of one).

/** The percentiles kept in results and drawn in the chart. */
export const chartPercentiles = [1, 10, 25, 50, 75, 90, 95, 99, 99.9];

/**
 * @param {number[]} sorted ascending
 * @param {number} p 0–100
 */
export function percentile(sorted, p) {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return /** @type {number} */ (sorted[rank]);
}

/**
 * @param {number[]} values
 * @returns {{ count: number, mean: number, p50: number, p90: number, p99: number, max: number, percentiles: Record<string, number> }}
 */
export function summarize(values) {
  const sorted = Float64Array.from(values).sort();
  const list = Array.from(sorted);
  const round = (/** @type {number} */ x) => Math.round(x * 1000) / 1000;
  return {
    count: list.length,
    mean: round(list.reduce((a, b) => a + b, 0) / Math.max(1, list.length)),
    p50: round(percentile(list, 50)),
    p90: round(percentile(list, 90)),
    p99: round(percentile(list, 99)),
    max: round(list[list.length - 1] ?? Number.NaN),
    percentiles: Object.fromEntries(chartPercentiles.map((p) => [String(p), round(percentile(list, p))])),
  };
}
