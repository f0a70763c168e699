import { describe, expect, it } from 'vitest';
import { type ReasonResponse, reasonResponseSchema } from '../../../src/contracts/reason-response';
import { createKey, postJson } from '../../helpers/api';
import { base64Of, pdfOf, pngOf, wavOf } from '../../helpers/media-samples';
import { framesOf } from './door-calls';

// Images, PDFs and audio through the OpenAI door, on the default catalog's simulator: `sim/fast` reads
// text only, `sim/balanced` images and PDFs, `sim/deep` audio too. A part that reaches the pipeline as
// media is what plans the request onto a model that reads it: the plan in `valve` says so.

const png = base64Of(pngOf(800, 600));
const pdf = base64Of(pdfOf(2));
const wav = base64Of(wavOf(1));

const post = (path: string, key: string, body: unknown) =>
  postJson(`/openai/v1/${path}`, body, { Authorization: `Bearer ${key}` });

interface OpenAiErrorJson {
  error: { message: string; type: string; param: string | null; code: string };
}

async function valveOf(res: Response): Promise<ReasonResponse> {
  const json = (await res.json()) as { valve: unknown };
  expect(res.status, JSON.stringify(json).slice(0, 800)).toBe(200);
  return reasonResponseSchema.parse(json.valve);
}

async function errorOf(res: Response, status: number): Promise<OpenAiErrorJson['error']> {
  const json = (await res.json()) as OpenAiErrorJson;
  expect(res.status, JSON.stringify(json).slice(0, 800)).toBe(status);
  return json.error;
}

const fastExcluded = {
  provider: 'sim',
  model: 'fast',
  reason: 'modality_unsupported',
  detail: expect.stringMatching(/^does not read /),
};

const chatWith = (...parts: unknown[]) => ({
  model: 'auto',
  messages: [{ role: 'user', content: [{ type: 'text', text: 'What did I send?' }, ...parts] }],
});

describe('media through /openai/v1/chat/completions', () => {
  it('plans an image_url data URL onto a model that reads images, and says why sim/fast was left out', async () => {
    const { key } = await createKey();
    const image = { type: 'image_url', image_url: { url: `data:image/png;base64,${png}` } };
    const valve = await valveOf(await post('chat/completions', key, chatWith(image)));
    expect(['balanced', 'deep']).toContain(valve.model.model);
    expect(valve.decision.excluded).toContainEqual(fastExcluded);
    // At the door every turn is untrusted (anyone may have written it), so its media are named as such.
    expect(valve.warnings).toContainEqual({
      code: 'prompt.untrusted_media',
      message: expect.stringContaining('Untrusted media reached the model (turn 1)'),
    });
  });

  it('refuses a user message’s media with valve.mediaPolicy.allowUntrusted false, as every door turn is untrusted', async () => {
    const { key } = await createKey();
    const image = { type: 'image_url', image_url: { url: `data:image/png;base64,${png}` } };
    const body = { ...chatWith(image), valve: { mediaPolicy: { allowUntrusted: false } } };
    const error = await errorOf(await post('chat/completions', key, body), 400);
    expect(error.code).toBe('request.media_refused');
    expect(error.message).toContain('untrusted media, and mediaPolicy.allowUntrusted is false');
  });

  it('plans a PDF file part onto a model that reads PDFs', async () => {
    const { key } = await createKey();
    const file = {
      type: 'file',
      file: { file_data: `data:application/pdf;base64,${pdf}`, filename: 'a.pdf' },
    };
    const valve = await valveOf(await post('chat/completions', key, chatWith(file)));
    expect(['balanced', 'deep']).toContain(valve.model.model);
    expect(valve.decision.excluded).toContainEqual(fastExcluded);
  });

  it('plans input_audio onto the one model that reads audio', async () => {
    const { key } = await createKey();
    const clip = { type: 'input_audio', input_audio: { data: wav, format: 'wav' } };
    const valve = await valveOf(await post('chat/completions', key, chatWith(clip)));
    expect(valve.model).toMatchObject({ provider: 'sim', model: 'deep' });
    expect(valve.decision.excluded).toContainEqual(
      expect.objectContaining({ model: 'balanced', reason: 'modality_unsupported' }),
    );
  });

  it('streams an answer to an image, the plan in the finish chunk', async () => {
    const { key } = await createKey();
    const image = { type: 'image_url', image_url: { url: `data:image/png;base64,${png}` } };
    const res = await post('chat/completions', key, { ...chatWith(image), stream: true });
    expect(res.status).toBe(200);
    const frames = await framesOf(res);
    const valve = reasonResponseSchema.parse(frames.find((f) => f.json?.valve !== undefined)?.json?.valve);
    expect(['balanced', 'deep']).toContain(valve.model.model);
  });

  it('takes a body of megabytes when they are media (MAX_MEDIA_BODY_BYTES, not MAX_BODY_BYTES)', async () => {
    const { key } = await createKey();
    const padded = new Uint8Array(3 * 1024 * 1024);
    padded.set(pngOf(800, 600));
    const image = { type: 'image_url', image_url: { url: `data:image/png;base64,${base64Of(padded)}` } };
    const valve = await valveOf(await post('chat/completions', key, chatWith(image)));
    expect(['balanced', 'deep']).toContain(valve.model.model);
  });

  it('reports an image detail it did not apply in valve.warnings', async () => {
    const { key } = await createKey();
    const image = { type: 'image_url', image_url: { url: `data:image/png;base64,${png}`, detail: 'low' } };
    const valve = await valveOf(await post('chat/completions', key, chatWith(image)));
    const ignored = valve.warnings.filter((w) => w.code === 'openai.param_ignored');
    expect(ignored.map((w) => w.message)).toEqual([
      expect.stringContaining('messages[0].content[1].image_url.detail'),
    ]);
  });

  it('refuses a URL source without valve.mediaPolicy.allowUrls, naming the part', async () => {
    const { key } = await createKey();
    const image = { type: 'image_url', image_url: { url: 'https://example.com/cat.png' } };
    const error = await errorOf(await post('chat/completions', key, chatWith(image)), 400);
    expect(error).toMatchObject({
      code: 'request.media_refused',
      param: 'messages[0].content[1].image_url.url',
    });
  });

  it('passes allowUrls on: the URL reaches planning, where no simulator model fetches URLs', async () => {
    const { key } = await createKey();
    const image = { type: 'image_url', image_url: { url: 'https://example.com/cat.png' } };
    const body = { ...chatWith(image), valve: { mediaPolicy: { allowUrls: true } } };
    const res = await post('chat/completions', key, body);
    const json = (await res.json()) as OpenAiErrorJson & { valve: { details: { excluded: unknown[] } } };
    expect(res.status, JSON.stringify(json).slice(0, 800)).toBe(422);
    expect(json.error.code).toBe('policy.no_eligible_model');
    expect(json.valve.details.excluded).toContainEqual(
      expect.objectContaining({ model: 'balanced', detail: 'its provider takes no image from a URL' }),
    );
  });

  it.each([
    [
      'an image of a type no provider takes',
      { type: 'image_url', image_url: { url: `data:image/tiff;base64,${png}` } },
      'messages[0].content[1].image_url.url',
    ],
    [
      'a file id when Valve chooses the model',
      { type: 'file', file: { file_id: 'file-1' } },
      'messages[0].content[1].file.file_id',
    ],
    [
      'audio of a format OpenAI does not define',
      { type: 'input_audio', input_audio: { data: wav, format: 'flac' } },
      'messages[0].content[1].input_audio.format',
    ],
    [
      'a part type Valve does not read',
      { type: 'video_url', video_url: { url: 'x' } },
      'messages[0].content[1]',
    ],
  ])('refuses %s with a 400 naming it', async (_, part, param) => {
    const { key } = await createKey();
    const error = await errorOf(await post('chat/completions', key, chatWith(part)), 400);
    expect(error).toMatchObject({ type: 'invalid_request_error', param });
  });

  it('refuses media in a system message with a 400 naming the part', async () => {
    const { key } = await createKey();
    const body = {
      model: 'auto',
      messages: [
        {
          role: 'system',
          content: [{ type: 'image_url', image_url: { url: `data:image/png;base64,${png}` } }],
        },
        { role: 'user', content: 'Hi' },
      ],
    };
    const error = await errorOf(await post('chat/completions', key, body), 400);
    expect(error.param).toBe('messages[0].content[0]');
    expect(error.message).toMatch(/user messages only/);
  });
});

describe('media through /openai/v1/responses', () => {
  const input = (...parts: unknown[]) => ({
    model: 'auto',
    input: [{ role: 'user', content: [{ type: 'input_text', text: 'What did I send?' }, ...parts] }],
  });

  it('plans input_image and input_file onto a model that reads both', async () => {
    const { key } = await createKey();
    const body = input(
      { type: 'input_image', image_url: `data:image/png;base64,${png}`, detail: 'auto' },
      { type: 'input_file', file_data: `data:application/pdf;base64,${pdf}`, filename: 'invoice.pdf' },
    );
    const valve = await valveOf(await post('responses', key, body));
    expect(['balanced', 'deep']).toContain(valve.model.model);
    expect(valve.decision.excluded).toContainEqual(fastExcluded);
    expect(valve.warnings.map((w) => w.code)).not.toContain('openai.param_ignored');
  });

  it('streams an answer to an image', async () => {
    const { key } = await createKey();
    const body = {
      ...input({ type: 'input_image', image_url: `data:image/png;base64,${png}` }),
      stream: true,
    };
    const res = await post('responses', key, body);
    expect(res.status).toBe(200);
    const frames = await framesOf(res);
    const completed = frames.find((f) => f.event === 'response.completed')?.json?.response as {
      valve: unknown;
    };
    expect(['balanced', 'deep']).toContain(reasonResponseSchema.parse(completed.valve).model.model);
  });

  it.each([
    [
      'an image by file id',
      { type: 'input_image', file_id: 'file-1', detail: 'auto' },
      'input[0].content[1].file_id',
    ],
    ['audio', { type: 'input_audio', input_audio: { data: wav, format: 'wav' } }, 'input[0].content[1]'],
    [
      'a file URL without allowUrls',
      { type: 'input_file', file_url: 'https://example.com/a.pdf' },
      'input[0].content[1].file_url',
    ],
  ])('refuses %s with a 400 naming it', async (_, part, param) => {
    const { key } = await createKey();
    const error = await errorOf(await post('responses', key, input(part)), 400);
    expect(error.param).toBe(param);
  });
});
