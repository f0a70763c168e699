// The latency chart: one line per server, latency (ms, log scale) against percentile, drawn as plain
// SVG text so that the README can show it without any plotting dependency.

const palette = ['#6b7280', '#2563eb', '#dc2626', '#059669', '#d97706', '#7c3aed', '#0891b2'];

/** @param {string} text */
const escapeXml = (text) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * @param {{ title: string, subtitle: string, series: { name: string, percentiles: Record<string, number> }[] }} input
 * @returns {string}
 */
export function latencyChart({ title, subtitle, series }) {
  const height = 420;
  const left = 70;
  const top = 64;
  const bottom = 56;
  const plotW = 520;
  // The legend's column is as wide as its longest name (about 7 px a character at 12 px), so that no
  // name is cut off at the edge of the picture.
  const longest = Math.max(0, ...series.map((s) => s.name.length));
  const right = Math.max(170, 60 + Math.ceil(longest * 7));
  const width = left + plotW + right;
  const plotH = height - top - bottom;
  const drawn = series.filter((s) => Object.values(s.percentiles).some((v) => Number.isFinite(v) && v > 0));
  const keys = Object.keys(drawn[0]?.percentiles ?? {}).sort((a, b) => Number(a) - Number(b));
  const values = drawn
    .flatMap((s) => Object.values(s.percentiles))
    .filter((v) => Number.isFinite(v) && v > 0);
  const lo = 10 ** Math.floor(Math.log10(Math.min(...values, 1)));
  const hi = 10 ** Math.ceil(Math.log10(Math.max(...values, 1)));
  const x = (/** @type {number} */ index) =>
    left + (keys.length <= 1 ? 0 : (index / (keys.length - 1)) * plotW);
  const y = (/** @type {number} */ ms) =>
    top +
    plotH -
    ((Math.log10(Math.max(ms, lo)) - Math.log10(lo)) / (Math.log10(hi) - Math.log10(lo))) * plotH;
  const out = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, sans-serif" font-size="12">`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    `<text x="${left}" y="24" font-size="16" font-weight="600">${escapeXml(title)}</text>`,
    `<text x="${left}" y="44" fill="#4b5563">${escapeXml(subtitle)}</text>`,
  ];
  for (let decade = lo; decade <= hi * 1.0001; decade *= 10) {
    for (const step of [1, 2, 5]) {
      const ms = decade * step;
      if (ms > hi * 1.0001) break;
      const yy = y(ms).toFixed(1);
      out.push(
        `<line x1="${left}" x2="${left + plotW}" y1="${yy}" y2="${yy}" stroke="${step === 1 ? '#d1d5db' : '#f0f1f3'}"/>`,
        `<text x="${left - 8}" y="${yy}" dy="4" text-anchor="end" fill="#374151">${ms >= 1 ? ms : ms.toPrecision(1)}</text>`,
      );
    }
  }
  keys.forEach((key, index) => {
    const xx = x(index).toFixed(1);
    out.push(
      `<line x1="${xx}" x2="${xx}" y1="${top}" y2="${top + plotH}" stroke="#f0f1f3"/>`,
      `<text x="${xx}" y="${top + plotH + 18}" text-anchor="middle" fill="#374151">p${key}</text>`,
    );
  });
  out.push(
    `<text x="${left + plotW / 2}" y="${height - 12}" text-anchor="middle" fill="#111827">percentile</text>`,
    `<text transform="translate(18 ${top + plotH / 2}) rotate(-90)" text-anchor="middle" fill="#111827">latency, ms (log scale)</text>`,
  );
  drawn.forEach((s, index) => {
    const colour = palette[index % palette.length];
    const points = keys
      .map((key, i) => `${x(i).toFixed(1)},${y(s.percentiles[key] ?? lo).toFixed(1)}`)
      .join(' ');
    out.push(`<polyline fill="none" stroke="${colour}" stroke-width="2.5" points="${points}"/>`);
    for (const [i, key] of keys.entries()) {
      out.push(
        `<circle cx="${x(i).toFixed(1)}" cy="${y(s.percentiles[key] ?? lo).toFixed(1)}" r="3" fill="${colour}"/>`,
      );
    }
    const ly = top + 10 + index * 22;
    out.push(
      `<line x1="${left + plotW + 18}" x2="${left + plotW + 42}" y1="${ly}" y2="${ly}" stroke="${colour}" stroke-width="3"/>`,
      `<text x="${left + plotW + 48}" y="${ly}" dy="4" fill="#111827">${escapeXml(s.name)}</text>`,
    );
  });
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}
