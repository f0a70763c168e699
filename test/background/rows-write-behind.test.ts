import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { createKey, reason } from '../helpers/api';

// The receipt and usage rows of concurrent requests share one D1 batch per isolate. A batch that fills
// up is written at once, by whichever request filled it: its write must still be made with the I/O of
// a request in the batch, or D1 refuses it ("Cannot perform I/O on behalf of a different request")
// and every row in it is lost.

async function rowsOf(tenant: string): Promise<{ receipts: number; usage: number }> {
  const receipts = await env.DB.prepare('SELECT COUNT(*) AS n FROM receipts WHERE tenant = ?')
    .bind(tenant)
    .first<{ n: number }>();
  const usage = await env.DB.prepare('SELECT COUNT(*) AS n FROM usage_records WHERE tenant = ?')
    .bind(tenant)
    .first<{ n: number }>();
  return { receipts: receipts?.n ?? 0, usage: usage?.n ?? 0 };
}

describe('the row write-behind', () => {
  it('keeps every row of a batch that filled up, written by a request other than the one that opened it', async () => {
    const tenant = 'rows-full-batch';
    const { key } = await createKey(tenant, ['reason']);
    // Two rows a request (receipt, usage) and 200 rows a batch: 150 concurrent requests fill one.
    const requests = 150;
    const answers = await Promise.all(
      Array.from({ length: requests }, () => reason(key, { task: 'summarize', instructions: 'Summarize.' })),
    );
    for (const res of answers) {
      expect(res.status).toBe(200);
      await res.arrayBuffer();
    }
    let rows = await rowsOf(tenant);
    // The writes follow the answers (a window, then up to three retries): wait, bounded, for them.
    for (let i = 0; i < 150 && (rows.receipts < requests || rows.usage < requests); i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      rows = await rowsOf(tenant);
    }
    expect(rows).toEqual({ receipts: requests, usage: requests });
  });
});
