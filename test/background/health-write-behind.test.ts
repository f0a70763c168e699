import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import type { HealthSnapshot } from '../../src/health/health-types';
import { createKey, reason } from '../helpers/api';

async function modelSamples(): Promise<number> {
  const snapshot = (await env.MODEL_HEALTH.getByName('global').snapshot()) as HealthSnapshot;
  return Object.entries(snapshot.models)
    .filter(([key]) => !key.endsWith('/*'))
    .reduce((sum, [, summary]) => sum + summary.samples, 0);
}

describe('the health write-behind', () => {
  it('writes the observation of every request, each sent in its own request context', async () => {
    const { key } = await createKey('health-batch', ['reason']);
    const before = await modelSamples();
    const requests = 4;
    for (let i = 0; i < requests; i++) {
      // Sequential requests through the Worker's fetch handler: each is its own request (and I/O
      // context), and each opens its own batch, since the previous batch was flushed.
      const res = await reason(key, { task: 'summarize', instructions: 'Summarize.' });
      expect(res.status).toBe(200);
      await res.arrayBuffer();
    }
    // The batched write follows the answer: wait (bounded) until every observation is stored.
    let samples = before;
    for (let i = 0; i < 100 && samples < before + requests; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      samples = await modelSamples();
    }
    expect(samples - before).toBe(requests);
  });
});
