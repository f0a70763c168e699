// C2SP tlog-tiles resource paths (https://c2sp.org/tlog-tiles): `tile/<L>/<N>[.p/<W>]` for hash tiles
// and `tile/entries/<N>[.p/<W>]` for entry bundles, below a log's URL prefix. `<N>` is written in
// zero-padded 3-digit elements, all but the last prefixed `x` (1234067 is `x001/x234/067`); `<L>` is
// 0 to 63 and `<W>` 1 to 255, decimal without leading zeros. Anything else is not a tile path.

/** Hashes (or entries) in a full tile. */
export const TILE_WIDTH = 256;

export interface TilePath {
  /** The tile's level, or `entries` for an entry bundle. */
  level: number | 'entries';
  index: number;
  /** 256 for a full tile, 1 to 255 for a partial one. */
  width: number;
}

const DECIMAL = /^(0|[1-9][0-9]*)$/;

function parseIndex(elements: string[]): number | null {
  if (elements.length === 0) return null;
  let index = 0;
  for (let i = 0; i < elements.length; i++) {
    const element = elements[i] as string;
    const last = i === elements.length - 1;
    const match = (last ? /^[0-9]{3}$/ : /^x[0-9]{3}$/).exec(element);
    if (match === null) return null;
    index = index * 1000 + Number(last ? element : element.slice(1));
  }
  // Only the shortest encoding: no leading `x000` element.
  if (elements.length > 1 && elements[0] === 'x000') return null;
  return Number.isSafeInteger(index) ? index : null;
}

/** Parses the part of a tile URL after `<prefix>/`, such as `tile/0/x001/x234/067.p/8`. */
export function parseTilePath(path: string): TilePath | null {
  const parts = path.split('/');
  if (parts[0] !== 'tile' || parts.length < 3) return null;
  const levelText = parts[1] as string;
  let level: number | 'entries';
  if (levelText === 'entries') level = 'entries';
  else if (DECIMAL.test(levelText) && Number(levelText) <= 63) level = Number(levelText);
  else return null;
  const rest = parts.slice(2);
  let width = TILE_WIDTH;
  const lastTwo = rest.slice(-2);
  if (rest.length >= 2 && (lastTwo[0] as string).endsWith('.p')) {
    const w = lastTwo[1] as string;
    if (!DECIMAL.test(w) || Number(w) < 1 || Number(w) >= TILE_WIDTH) return null;
    width = Number(w);
    rest.splice(-2, 2, (lastTwo[0] as string).slice(0, -2));
  }
  const index = parseIndex(rest);
  return index === null ? null : { level, index, width };
}

/** The path of a tile below a log's prefix, as parseTilePath reads it. */
export function formatTilePath(tile: TilePath): string {
  const digits = String(tile.index).padStart(3, '0');
  const groups: string[] = [];
  for (let end = digits.length; end > 0; end -= 3) groups.unshift(digits.slice(Math.max(0, end - 3), end));
  const first = groups[0] as string;
  groups[0] = first.padStart(3, '0');
  const n = groups.map((g, i) => (i === groups.length - 1 ? g : `x${g}`)).join('/');
  const partial = tile.width === TILE_WIDTH ? '' : `.p/${tile.width}`;
  return `tile/${tile.level}/${n}${partial}`;
}
