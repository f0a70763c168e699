// Inflates a Flate (zlib, or raw deflate as some writers leave it) stream within a byte budget shared
// by every stream of one file: past the budget it stops reading and says so, never waiting for the rest.

export interface InflateBudget {
  /** Bytes still allowed out of all streams together. */
  left: number;
}

export type Inflated = { ok: true; bytes: Uint8Array } | { ok: false; reason: 'damaged' | 'over budget' };

async function inflateAs(
  format: 'deflate' | 'deflate-raw',
  bytes: Uint8Array,
  budget: InflateBudget,
): Promise<Inflated> {
  const stream = new Blob([bytes.slice()]).stream().pipeThrough(new DecompressionStream(format));
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let length = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || value === undefined) break;
      budget.left -= value.length;
      if (budget.left < 0) return { ok: false, reason: 'over budget' };
      chunks.push(value);
      length += value.length;
    }
  } catch {
    return { ok: false, reason: 'damaged' };
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  const out = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return { ok: true, bytes: out };
}

/** The stream's decoded bytes; a damaged stream is tried again as raw deflate before it is given up. */
export async function inflateWithin(bytes: Uint8Array, budget: InflateBudget): Promise<Inflated> {
  const zlib = await inflateAs('deflate', bytes, budget);
  if (zlib.ok || zlib.reason === 'over budget') return zlib;
  return inflateAs('deflate-raw', bytes, budget);
}
