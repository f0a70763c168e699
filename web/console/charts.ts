import { niceMax, shareOf } from './chart-scale';
import { el, svg } from './dom';

// The console's charts, drawn here as SVG (no chart library, nothing from another origin). Each is an
// image with a label saying what it shows; each bar carries its figure as a tooltip, and the same
// figures are in the tables beside the charts.

export interface Bar {
  label: string;
  value: number;
  /** A cap the value is held against: the bar is drawn on the cap's scale, with a mark at the cap. */
  cap?: number | null;
}

const WIDTH = 560;

/** One bar per day, left to right. */
export function columnChart(title: string, bars: Bar[], format: (value: number) => string): HTMLElement {
  const height = 180;
  const top = 16;
  const bottom = 24;
  const left = 56;
  const max = niceMax(Math.max(0, ...bars.map((b) => b.value)));
  const plot = height - top - bottom;
  const step = (WIDTH - left) / Math.max(1, bars.length);
  const parts: SVGElement[] = [
    svg('line', { x1: left, x2: WIDTH, y1: top + plot, y2: top + plot, class: 'axis' }),
    svg('text', { x: left - 6, y: top + 4, class: 'tick', 'text-anchor': 'end' }, format(max)),
    svg('text', { x: left - 6, y: top + plot, class: 'tick', 'text-anchor': 'end' }, format(0)),
  ];
  bars.forEach((bar, i) => {
    const h = shareOf(bar.value, max) * plot;
    const x = left + i * step + step * 0.15;
    parts.push(
      svg(
        'rect',
        { x, y: top + plot - h, width: step * 0.7, height: Math.max(h, bar.value > 0 ? 1 : 0), class: 'bar' },
        svg('title', {}, `${bar.label}: ${format(bar.value)}`),
      ),
    );
    // A label under every bar when few, else under every fifth.
    if (bars.length <= 10 || i % 5 === 0 || i === bars.length - 1) {
      parts.push(
        svg('text', { x: x + step * 0.35, y: height - 6, class: 'tick', 'text-anchor': 'middle' }, bar.label),
      );
    }
  });
  return figure(
    title,
    svg('svg', { viewBox: `0 0 ${WIDTH} ${height}`, role: 'img', 'aria-label': title }, ...parts),
  );
}

/** One bar per row, top to bottom; a row with a cap shows its value against the cap. */
export function barChart(title: string, bars: Bar[], format: (value: number) => string): HTMLElement {
  if (bars.length === 0)
    return el(
      'figure',
      { class: 'chart' },
      el('figcaption', {}, title),
      el('p', { class: 'empty' }, 'Nothing yet.'),
    );
  const row = 30;
  const labelWidth = 150;
  const valueWidth = 130;
  const height = Math.max(1, bars.length) * row + 8;
  const plot = WIDTH - labelWidth - valueWidth;
  const max = niceMax(Math.max(0, ...bars.map((b) => Math.max(b.value, b.cap ?? 0))));
  const parts: SVGElement[] = [];
  bars.forEach((bar, i) => {
    const y = i * row + 6;
    const scale = bar.cap != null && bar.cap > 0 ? bar.cap : max;
    const width = (bar.cap != null ? shareOf(bar.value, scale) : shareOf(bar.value, max)) * plot;
    const near = bar.cap != null && bar.cap > 0 && bar.value >= bar.cap * 0.9;
    const figureText = bar.cap == null ? format(bar.value) : `${format(bar.value)} of ${format(bar.cap)}`;
    parts.push(
      svg('text', { x: labelWidth - 8, y: y + 15, class: 'label', 'text-anchor': 'end' }, clip(bar.label)),
    );
    if (bar.cap != null) {
      parts.push(svg('rect', { x: labelWidth, y, width: plot, height: row - 10, class: 'track' }));
    }
    parts.push(
      svg(
        'rect',
        {
          x: labelWidth,
          y,
          width: Math.max(width, bar.value > 0 ? 1 : 0),
          height: row - 10,
          class: near ? 'bar near-cap' : 'bar',
        },
        svg('title', {}, `${bar.label}: ${figureText}`),
      ),
    );
    if (bar.cap != null) {
      parts.push(
        svg('line', {
          x1: labelWidth + plot,
          x2: labelWidth + plot,
          y1: y - 2,
          y2: y + row - 8,
          class: 'cap',
        }),
      );
    }
    parts.push(svg('text', { x: labelWidth + plot + 8, y: y + 15, class: 'value' }, figureText));
  });
  return figure(
    title,
    svg('svg', { viewBox: `0 0 ${WIDTH} ${height}`, role: 'img', 'aria-label': title }, ...parts),
  );
}

function clip(label: string): string {
  return label.length > 22 ? `${label.slice(0, 21)}…` : label;
}

function figure(title: string, chart: SVGElement): HTMLElement {
  return el('figure', { class: 'chart' }, el('figcaption', {}, title), chart);
}
