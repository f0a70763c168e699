import { afterEach, describe, expect, it, vi } from 'vitest';
import * as measuring from '../../src/media/measure-media';
import { adminToken, call, createKey, reason } from '../helpers/api';
import { countBombPdf } from '../helpers/hostile-media';
import { base64Of } from '../helpers/media-samples';

// What a request costs Valve before it is admitted. Measuring media reads their bytes (and inflates a
// PDF's object streams), so a tenant who cannot pay even for the request's text is refused before
// any of it; and the worst PDF for the page counter, 2 KB inflating to 768 KiB of `/Count 1 `, is
// measured in bounded work, so another tenant's request is answered beside it.

afterEach(() => vi.restoreAllMocks());

const bombRequest = async () => ({
  task: 'summarize',
  instructions: 'Summarize the attachment.',
  context: [
    {
      trust: 'untrusted',
      privacy: 'internal',
      media: [
        {
          type: 'file',
          mimeType: 'application/pdf',
          source: { kind: 'base64', data: base64Of(await countBombPdf()) },
        },
      ],
    },
  ],
  modelPolicy: { prefer: 'quality' },
});

describe('media before admission', () => {
  it('refuses a tenant whose cap is spent with 402 before measuring its media', async () => {
    const tenant = 'media-admission-zero';
    const put = await call(`/v1/admin/tenants/${tenant}/budget`, {
      method: 'PUT',
      headers: { Authorization: `Bearer ${adminToken}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ monthlyCapUsd: 0 }),
    });
    expect(put.status).toBe(200);
    const measure = vi.spyOn(measuring, 'measureMedia');
    const { key } = await createKey(tenant, ['reason']);
    const res = await reason(key, await bombRequest());
    const body = (await res.json()) as { error: { code: string } };
    expect([res.status, body.error.code]).toEqual([402, 'limit.budget_exhausted']);
    expect(measure).not.toHaveBeenCalled();
  });

  it('measures the count bomb in bounded work while another tenant’s request is answered', async () => {
    const measure = vi.spyOn(measuring, 'measureMedia');
    const [bomber, other] = await Promise.all([
      createKey('media-bomber', ['reason']),
      createKey('media-other', ['reason']),
    ]);
    const [bombed, answered] = await Promise.all([
      reason(bomber.key, await bombRequest()),
      reason(other.key, { task: 'greet', instructions: 'Say hello.' }),
    ]);
    expect(answered.status).toBe(200);
    const bombAnswer = (await bombed.json()) as {
      decision?: { media?: { basis: string; tokens: number }[] };
    };
    expect(bombed.status, JSON.stringify(bombAnswer).slice(0, 400)).toBe(200);
    expect(measure).toHaveBeenCalledTimes(1);
    expect(bombAnswer.decision?.media?.[0]?.tokens).toBeGreaterThan(0);
  });
});
