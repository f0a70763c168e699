import { env } from 'cloudflare:workers';
import { vi } from 'vitest';

/**
 * A tenant's usage rows (`columns` of each, oldest first), once there are `count` of them. The rows go
 * out in the isolate's write-behind batch, which a request other than the test's may have opened and
 * keeps alive (in a runtime shared with other files, test/runtime-shares.ts), so a test's own wait on
 * its request does not mean its row is written: this reads again until it is.
 */
export async function usageRowsOf<Row extends Record<string, unknown>>(
  tenant: string,
  columns: (keyof Row & string)[],
  count: number,
): Promise<Row[]> {
  return vi.waitFor(async () => {
    const { results } = await env.DB.prepare(
      `SELECT ${columns.join(', ')} FROM usage_records WHERE tenant = ? ORDER BY id`,
    )
      .bind(tenant)
      .all<Row>();
    if (results.length < count)
      throw new Error(`${results.length} of ${count} usage rows for ${tenant} so far`);
    return results;
  });
}
