// An independent C2SP tlog-tiles reader for tests: it knows only the spec's path rules
// (https://c2sp.org/tlog-tiles) and RFC 6962 hashing, and imports nothing of Valve's tree or tile code.
// Given a log's prefix and its checkpoint's size and root, it recomputes the root from the tiles
// (refusing tiles that do not lead to it), and reads entries and their inclusion from the bundles.

export type Get = (url: string) => Promise<Uint8Array | null>;

async function sha256(...parts: Uint8Array[]): Promise<Uint8Array> {
  const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    all.set(p, at);
    at += p.length;
  }
  return new Uint8Array(await crypto.subtle.digest('SHA-256', all));
}

const leafOf = (entry: Uint8Array) => sha256(new Uint8Array([0]), entry);
const nodeOf = (l: Uint8Array, r: Uint8Array) => sha256(new Uint8Array([1]), l, r);

/** The spec's `<N>`: zero-padded 3-digit elements, all but the last with an `x`. */
export function tileIndexPath(n: number): string {
  const parts: string[] = [];
  do {
    parts.unshift(String(n % 1000).padStart(3, '0'));
    n = Math.floor(n / 1000);
  } while (n > 0);
  return parts.map((p, i) => (i < parts.length - 1 ? `x${p}` : p)).join('/');
}

export class TileReader {
  private readonly tiles = new Map<string, Uint8Array[]>();

  constructor(
    private readonly prefix: string,
    private readonly size: number,
    private readonly get: Get,
  ) {}

  /** The width of tile (level L, index n) in a tree of `size`: 256 if full, else the spec's partial width. */
  private widthOf(level: number, n: number): number {
    const count = Math.floor(this.size / 256 ** level);
    if ((n + 1) * 256 <= count) return 256;
    return count % 256;
  }

  private async tile(level: number | 'entries', n: number): Promise<Uint8Array[]> {
    const w = this.widthOf(level === 'entries' ? 0 : level, n);
    const path = `${this.prefix}/tile/${level}/${tileIndexPath(n)}${w === 256 ? '' : `.p/${w}`}`;
    const held = this.tiles.get(path);
    if (held) return held;
    const body = await this.get(path);
    if (body === null) throw new Error(`${path} is not served`);
    const items: Uint8Array[] = [];
    if (level === 'entries') {
      for (let at = 0; at < body.length; ) {
        const length = ((body[at] as number) << 8) | (body[at + 1] as number);
        items.push(body.slice(at + 2, at + 2 + length));
        at += 2 + length;
      }
    } else {
      if (body.length !== w * 32) throw new Error(`${path} is ${body.length} bytes, not ${w * 32}`);
      for (let i = 0; i < w; i++) items.push(body.slice(i * 32, i * 32 + 32));
    }
    if (items.length !== w) throw new Error(`${path} holds ${items.length} items, not ${w}`);
    this.tiles.set(path, items);
    return items;
  }

  /** The hash of the complete subtree (height h, index i) from the tiles: MTH(D[i·2^h : (i+1)·2^h]). */
  async node(h: number, i: number): Promise<Uint8Array> {
    const level = Math.floor(h / 8);
    const below = h - 8 * level; // levels to hash up inside the tile
    const first = i * 2 ** below;
    const tile = await this.tile(level, Math.floor(first / 256));
    let row = tile.slice(first % 256, (first % 256) + 2 ** below);
    if (row.length !== 2 ** below) throw new Error(`tile ${level}/${Math.floor(first / 256)} is too short`);
    while (row.length > 1) {
      const up: Uint8Array[] = [];
      for (let k = 0; k < row.length; k += 2)
        up.push(await nodeOf(row[k] as Uint8Array, row[k + 1] as Uint8Array));
      row = up;
    }
    return row[0] as Uint8Array;
  }

  /** MTH(D[start:end]) by RFC 6962's split, every complete subtree read from the tiles. */
  async range(start: number, end: number): Promise<Uint8Array> {
    const n = end - start;
    if (n === 0) return sha256();
    if ((n & (n - 1)) === 0 && start % n === 0) return this.node(Math.log2(n), start / n);
    let k = 1;
    while (k * 2 < n) k *= 2;
    return nodeOf(await this.range(start, start + k), await this.range(start + k, end));
  }

  /** The root recomputed from the tiles; throws unless it is the checkpoint's. */
  async checkRoot(root: Uint8Array): Promise<void> {
    const computed = await this.range(0, this.size);
    if (computed.length !== root.length || computed.some((b, i) => b !== root[i])) {
      throw new Error('the tiles do not lead to the checkpoint’s root');
    }
  }

  /**
   * Checks that tile (level, n) is the one the checkpoint commits to: a full tile must hash to its
   * hash in the tile above (checked in turn); a partial one's hashes are the root's own pieces, which
   * checkRoot has recomputed into the signed root.
   */
  async checkTile(level: number, n: number): Promise<void> {
    if (this.widthOf(level, n) !== 256) return;
    const hashes = await this.tile(level, n);
    let row = hashes;
    while (row.length > 1) {
      const up: Uint8Array[] = [];
      for (let k = 0; k < row.length; k += 2)
        up.push(await nodeOf(row[k] as Uint8Array, row[k + 1] as Uint8Array));
      row = up;
    }
    const above = (await this.tile(level + 1, Math.floor(n / 256)))[n % 256];
    if (above === undefined || !(row[0] as Uint8Array).every((b, i) => b === above[i])) {
      throw new Error(`tile ${level}/${n} does not hash to its hash in the tile above`);
    }
    await this.checkTile(level + 1, Math.floor(n / 256));
  }

  /** Entry `index` from its bundle, checked against the level-0 tile's leaf hash and that tile up to the root. */
  async entry(index: number): Promise<Uint8Array> {
    await this.checkTile(0, Math.floor(index / 256));
    const entries = await this.tile('entries', Math.floor(index / 256));
    const entry = entries[index % 256];
    if (entry === undefined) throw new Error(`no entry ${index}`);
    const leaves = await this.tile(0, Math.floor(index / 256));
    const leaf = await leafOf(entry);
    if (!leaf.every((b, i) => b === leaves[index % 256]?.[i]))
      throw new Error(`entry ${index} is not its leaf`);
    return entry;
  }
}

/** A checkpoint's size and root (its second and third lines). */
export function sizeAndRoot(note: string): { origin: string; size: number; root: Uint8Array } {
  const [origin, size, root] = note.split('\n');
  return {
    origin: origin as string,
    size: Number(size),
    root: Uint8Array.from(atob(root as string), (c) => c.charCodeAt(0)),
  };
}
