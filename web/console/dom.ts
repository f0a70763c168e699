// The console builds every node with textContent and attributes only: no text from Valve (a tenant,
// a model name, an error message) is ever parsed as HTML.

export type Child = Node | string;

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
  node.append(...children);
  return node;
}

const SVG = 'http://www.w3.org/2000/svg';

export function svg(
  tag: string,
  attrs: Record<string, string | number> = {},
  ...children: Child[]
): SVGElement {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, String(value));
  node.append(...children);
  return node;
}

export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const node = document.getElementById(id);
  if (node === null) throw new Error(`the page has no #${id}`);
  return node as T;
}

/** A table with a header row; each row's cells are text or nodes. */
export function table(
  caption: string,
  headings: string[],
  rows: Child[][],
  attrs: Record<string, string> = {},
) {
  const head = el('tr', {}, ...headings.map((h) => el('th', { scope: 'col' }, h)));
  const body = rows.map((cells) => el('tr', {}, ...cells.map((cell) => el('td', {}, cell))));
  return el(
    'div',
    { class: 'scroll' },
    el('table', attrs, el('caption', {}, caption), el('thead', {}, head), el('tbody', {}, ...body)),
  );
}

/** A short sentence for a list with nothing in it yet, saying what would fill it. */
export function emptyState(text: string): HTMLElement {
  return el('p', { class: 'empty' }, text);
}
