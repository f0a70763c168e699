// Statistics of the injection eval (pure).

/** Wilson score interval at 95% for k successes in n trials; [0, 1] when n is 0. */
export function wilson(k, n) {
  if (n === 0) return [0, 1];
  const z = 1.959963984540054;
  const p = k / n;
  const denominator = 1 + (z * z) / n;
  const centre = (p + (z * z) / (2 * n)) / denominator;
  const half = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / denominator;
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}

/** log(n choose k), by sums of logs (exact enough for the few hundred trials of an eval). */
function logChoose(n, k) {
  let sum = 0;
  for (let i = 1; i <= k; i++) sum += Math.log(n - k + i) - Math.log(i);
  return sum;
}

/**
 * Exact (binomial) McNemar test on paired outcomes: `b` pairs where only the first arm succeeded, `c`
 * where only the second did. Two-sided p-value: twice the smaller binomial(b + c, 1/2) tail, at most 1.
 */
export function mcnemarExact(b, c) {
  const n = b + c;
  if (n === 0) return 1;
  const k = Math.min(b, c);
  let tail = 0;
  for (let i = 0; i <= k; i++) tail += Math.exp(logChoose(n, i) - n * Math.LN2);
  return Math.min(1, 2 * tail);
}

/**
 * Discordant pairs of two arms over the trials both answered: `only` counts trials where `first` is
 * true and `second` false, `other` the reverse. Trials missing from either arm (an error) are left out.
 */
export function discordant(first, second) {
  let only = 0;
  let other = 0;
  let paired = 0;
  for (const [id, a] of first) {
    const b = second.get(id);
    if (b === undefined) continue;
    paired++;
    if (a && !b) only++;
    if (!a && b) other++;
  }
  return { only, other, paired };
}
