import { env } from 'cloudflare:workers';

export { ReceiptLog } from '../../src/log/receipt-log.ts';

// POST /witness?shard=S: one witnessing round of log S now (ReceiptLog.witnessRound, what its alarm
// runs), answered as its JSON: { size, outcomes: [{ name, ok, detail }], milliseconds }, or null when
// S has no witnesses configured or nothing logged.
// Any other request, e.g. POST /append?n=N&shard=S: N appends of distinct entry hashes, all in flight
// at once, to log S. Answers the sizes of the distinct checkpoints (batches) they landed in, and the
// last index.
export default {
  /** @param {Request} request */
  async fetch(request) {
    const url = new URL(request.url);
    const log = env.RECEIPT_LOG.getByName(url.searchParams.get('shard') ?? 'bench');
    if (url.pathname === '/witness') return Response.json(await log.witnessRound());
    const n = Number(url.searchParams.get('n') ?? '100');
    const seed = crypto.getRandomValues(new Uint8Array(28));
    const results = await Promise.all(
      Array.from({ length: n }, (_, i) => {
        const entry = new Uint8Array(32);
        entry.set(seed);
        new DataView(entry.buffer).setUint32(28, i);
        return log.append(entry);
      }),
    );
    // The checkpoint is the proof's tail, after the blank line that ends the path.
    const checkpoints = new Set(results.map((r) => r.proof.slice(r.proof.indexOf('\n\n') + 2)));
    const sizes = [...checkpoints].map((note) => Number(note.split('\n')[1]));
    return Response.json({ appended: n, sizes, last: Math.max(...results.map((r) => r.index)) });
  },
};
