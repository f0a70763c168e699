import { describe, expect, it } from 'vitest';
import { type ReasonRequest, reasonRequestSchema } from '../../src/contracts/reason-request';
import { type ReasonResponse, reasonResponseSchema } from '../../src/contracts/reason-response';
import type { VerifyReport } from '../../src/contracts/receipt-bodies';
import { bytesToHex } from '../../src/encoding/hex';
import { buildDisclosure } from '../../src/receipts/disclose';
import { createKey, postJson, reason } from '../helpers/api';
import { responseValidator, validates } from '../helpers/json-schemas';
import { base64Of, pdfOf, pngOf, wavOf } from '../helpers/media-samples';
import { deltaText, readStream } from '../helpers/read-stream';

// Images, PDFs and audio as context through POST /v1/reason, on the default catalog's simulator:
// `sim/fast` reads text only, `sim/balanced` images and PDFs, `sim/deep` audio too.

const salt = 'bWVkaWEtbWVkaWEtbWVkaWEtbWVkaWEtbWVkaWEtbWVkaWEt';
const png = pngOf(800, 600);
const pdf = pdfOf(2);
const image = { type: 'image', mimeType: 'image/png', source: { kind: 'base64', data: base64Of(png) } };
const invoice = {
  type: 'file',
  mimeType: 'application/pdf',
  source: { kind: 'base64', data: base64Of(pdf) },
  filename: 'invoice.pdf',
};
const screenshot = (media: unknown[], trust = 'untrusted') => ({
  label: 'sent by the customer',
  trust,
  privacy: 'internal',
  content: 'The customer attached these.',
  media,
});
const base = { task: 'triage', instructions: 'Say what the customer sent.', receiptSalt: salt };

async function answerOf(res: Response): Promise<ReasonResponse> {
  const json = await res.json();
  expect(res.status, JSON.stringify(json).slice(0, 800)).toBe(200);
  expect(validates(responseValidator, json)).toBe(true);
  return reasonResponseSchema.parse(json);
}

async function errorOf(res: Response, status: number) {
  const json = (await res.json()) as {
    error: { code: string; message: string; details?: Record<string, unknown> };
  };
  expect(res.status, JSON.stringify(json).slice(0, 800)).toBe(status);
  return json.error;
}

async function sha256Hex(bytes: Uint8Array): Promise<string> {
  return bytesToHex(new Uint8Array(await crypto.subtle.digest('SHA-256', bytes)));
}

describe('media as context', () => {
  it('plans an image and a PDF onto a model that reads both, and says why the text-only one was excluded', async () => {
    const { key } = await createKey('media-route');
    const response = await answerOf(await reason(key, { ...base, context: [screenshot([image, invoice])] }));
    expect(['balanced', 'deep']).toContain(response.model.model);
    expect(response.decision.excluded).toContainEqual({
      provider: 'sim',
      model: 'fast',
      reason: 'modality_unsupported',
      detail: 'does not read image or pdf (it reads text)',
    });
    expect(response.warnings.map((w) => w.code)).toContain('prompt.untrusted_media');
  });

  it('streams an answer to media: the same plan, the warning in the completed answer', async () => {
    const { key } = await createKey('media-stream');
    const res = await reason(
      key,
      { ...base, context: [screenshot([image, invoice])] },
      { Accept: 'text/event-stream' },
    );
    expect(res.status).toBe(200);
    const events = await readStream(res);
    expect(deltaText(events)).toContain('1 image and 1 PDF');
    const done = events.at(-1) as { type: string; response: ReasonResponse };
    expect(done.type).toBe('response.completed');
    expect(done.response.warnings.map((w) => w.code)).toContain('prompt.untrusted_media');
  });

  it('does not warn of untrusted media when the media are trusted', async () => {
    const { key } = await createKey('media-trusted');
    const response = await answerOf(
      await reason(key, { ...base, context: [screenshot([image], 'trusted')] }),
    );
    expect(response.warnings.map((w) => w.code)).not.toContain('prompt.untrusted_media');
  });

  it('plans audio only onto the model that reads audio', async () => {
    const { key } = await createKey('media-audio');
    const clip = {
      type: 'audio',
      mimeType: 'audio/wav',
      source: { kind: 'base64', data: base64Of(wavOf(1)) },
    };
    const response = await answerOf(await reason(key, { ...base, context: [screenshot([clip])] }));
    expect(response.model).toMatchObject({ provider: 'sim', model: 'deep' });
    expect(response.decision.excluded).toContainEqual(
      expect.objectContaining({ model: 'balanced', reason: 'modality_unsupported' }),
    );
  });

  it('commits each part by the SHA-256 of its bytes: the disclosed item verifies and carries no bytes', async () => {
    const { key } = await createKey('media-receipt');
    const request: ReasonRequest = reasonRequestSchema.parse({
      ...base,
      context: [screenshot([image, invoice])],
    });
    const response = await answerOf(await reason(key, request));
    const bundle = await buildDisclosure({ request, response, salt, fields: ['req.context[0]'] });
    const opened = bundle.open['req.context[0]']?.value as { media: Array<{ source: unknown }> };
    expect(opened.media.map((m) => m.source)).toEqual([
      { kind: 'sha256', sha256: await sha256Hex(png), bytes: png.length },
      { kind: 'sha256', sha256: await sha256Hex(pdf), bytes: pdf.length },
    ]);
    expect(JSON.stringify(bundle)).not.toContain(base64Of(png).slice(0, 40));
    const report = (await (await postJson('/v1/receipts/verify', bundle)).json()) as VerifyReport;
    expect(report.verdict).toBe('verified');
    expect(report.fields.find((f) => f.field === 'req.context[0]')?.status).toBe('verified');
  });

  it('taints a tool call made after untrusted media was read, and only then', async () => {
    const { key } = await createKey('media-taint');
    const lookup = { name: 'lookup', inputSchema: { type: 'object', properties: {} } };
    const ask = { role: 'user', content: 'Use lookup: where is order 42?' };
    const body = { ...base, tools: [lookup], conversation: [ask] };
    const media = { type: 'image', mimeType: 'image/png', source: image.source };
    const clean = await answerOf(await reason(key, body));
    const afterMedia = await answerOf(
      await reason(key, { ...body, context: [{ trust: 'untrusted', privacy: 'public', media: [media] }] }),
    );
    expect(clean.toolCalls?.[0]?.tainted).toBe(false);
    expect(afterMedia.toolCalls?.[0]?.tainted).toBe(true);
  });
});

describe('media refused', () => {
  it('refuses a text-only pin with an error that names the pinned model and why', async () => {
    const { key } = await createKey('media-pin');
    const modelPolicy = { pinned: { provider: 'sim', model: 'fast' }, allowFallback: false };
    const error = await errorOf(
      await reason(key, { ...base, modelPolicy, context: [screenshot([image])] }),
      422,
    );
    expect(error.code).toBe('policy.no_eligible_model');
    expect(error.message).toContain(
      'The pinned model sim/fast is excluded (modality_unsupported): does not read image (it reads text).',
    );
  });

  it('refuses untrusted media when mediaPolicy.allowUntrusted is false, and takes trusted media', async () => {
    const { key } = await createKey('media-policy');
    const mediaPolicy = { allowUntrusted: false };
    const error = await errorOf(
      await reason(key, { ...base, mediaPolicy, context: [screenshot([image])] }),
      400,
    );
    expect(error.code).toBe('request.media_refused');
    expect(error.details).toEqual({ path: '/context/0/media/0' });
    await answerOf(await reason(key, { ...base, mediaPolicy, context: [screenshot([image], 'trusted')] }));
  });

  it('never sends a URL unless the request allows it, and then only to a provider that fetches it', async () => {
    const { key } = await createKey('media-url');
    const byUrl = {
      type: 'image',
      mimeType: 'image/png',
      source: { kind: 'url', url: 'https://img.test/a.png' },
    };
    const refused = await errorOf(await reason(key, { ...base, context: [screenshot([byUrl])] }), 400);
    expect(refused.code).toBe('request.media_refused');
    expect(refused.message).toContain('mediaPolicy.allowUrls');
    // The simulator, like Workers AI, takes bytes only: allowed, the URL still has no model to go to.
    const allowed = { ...base, mediaPolicy: { allowUrls: true }, context: [screenshot([byUrl])] };
    const none = await errorOf(await reason(key, allowed), 422);
    expect(none.details?.excluded).toContainEqual(
      expect.objectContaining({ model: 'balanced', detail: 'its provider takes no image from a URL' }),
    );
  });

  it('answers 400 naming the part for a wrong MIME type, bad base64, or an image over 5 MiB', async () => {
    const { key } = await createKey('media-invalid');
    const bad = async (part: unknown) => {
      const error = await errorOf(await reason(key, { ...base, context: [screenshot([part])] }), 400);
      expect(error.code).toBe('request.invalid');
      return ((error.details?.issues ?? []) as Array<{ path: string; message: string }>)[0];
    };
    expect(await bad({ ...image, mimeType: 'image/bmp' })).toMatchObject({
      path: '/context/0/media/0/mimeType',
      message: 'an image part takes image/png, image/jpeg, image/gif, image/webp',
    });
    expect(
      await bad({ ...image, source: { kind: 'base64', data: 'data:image/png;base64,AAAA' } }),
    ).toMatchObject({
      path: '/context/0/media/0/source/data',
    });
    const big = 'A'.repeat(Math.ceil((5 * 1024 * 1024 + 3) / 3) * 4);
    expect(await bad({ ...image, source: { kind: 'base64', data: big } })).toMatchObject({
      path: '/context/0/media/0/source/data',
      message: 'an image part carries at most 5242880 bytes',
    });
  });

  it('takes a body over 1 MiB when the rest is media, and 413s text over 1 MiB beside media', async () => {
    const { key } = await createKey('media-size');
    const large = pngOf(800, 600);
    const padded = new Uint8Array(2 * 1024 * 1024);
    padded.set(large);
    const big = { ...image, source: { kind: 'base64', data: base64Of(padded) } };
    await answerOf(await reason(key, { ...base, context: [screenshot([big])] }));
    const words = { trust: 'untrusted', privacy: 'internal', content: 'x'.repeat(1024 * 1024) };
    const error = await errorOf(await reason(key, { ...base, context: [screenshot([image]), words] }), 413);
    expect(error.code).toBe('request.too_large');
    expect(error.message).toMatch(
      /^The body without its media parts is \d+ bytes, over the limit of 1048576 bytes\.$/,
    );
  });

  it('holds the cost cap with media: an image’s tokens are reserved before the call', async () => {
    const { key } = await createKey('media-cost');
    const photo = { ...image, source: { kind: 'base64', data: base64Of(pngOf(1600, 1200)) } };
    // 3,779 image tokens at sim/balanced's $1 per million are $0.0038: over a $0.002 cap, which the
    // same request without the image fits.
    const modelPolicy = { maxCostUsd: 0.002 };
    await answerOf(
      await reason(key, { ...base, modelPolicy, context: [screenshot([])].map(({ media: _, ...t }) => t) }),
    );
    const error = await errorOf(
      await reason(key, { ...base, modelPolicy, context: [screenshot([photo])] }),
      422,
    );
    expect(error.details?.excluded).toContainEqual(
      expect.objectContaining({ model: 'balanced', reason: 'cost' }),
    );
  });
});
