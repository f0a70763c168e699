import { describe, expect, it } from 'vitest';
import { mediaLimits } from '../../../src/contracts/media-part';
import { reasonRequestSchema } from '../../../src/contracts/reason-request';
import { openaiParamOf } from '../../../src/doors/invalid-param';
import { type ChatRequest, chatRequestSchema } from '../../../src/doors/openai/chat-request';
import { chatToReason } from '../../../src/doors/openai/chat-to-reason';
import { ignoredChatKnobs, ignoredResponsesKnobs } from '../../../src/doors/openai/ignored-knobs';
import { responsesRequestSchema } from '../../../src/doors/openai/responses-request';
import { responsesToReason } from '../../../src/doors/openai/responses-to-reason';
import { ApiError } from '../../../src/errors';
import { base64Of, pdfOf, pngOf, wavOf } from '../../helpers/media-samples';

// Images, PDFs and audio in OpenAI bodies → the Reason request's media parts (docs/openai-door.md
// "Images, PDFs and audio"), and every refusal as a 400 whose param names the member at fault.

const png = base64Of(pngOf(64, 48));
const pdf = base64Of(pdfOf(1));
const wav = base64Of(wavOf(0.5));
const pngUrl = `data:image/png;base64,${png}`;
const pdfUrl = `data:application/pdf;base64,${pdf}`;

const chat = (body: Record<string, unknown>) => chatToReason(chatRequestSchema.parse(body) as ChatRequest);
const chatRequest = (body: Record<string, unknown>) => chat(body).request;
const responses = (body: Record<string, unknown>) => responsesToReason(responsesRequestSchema.parse(body));
const responsesRequest = (body: Record<string, unknown>) => responses(body).request;

const user = (...content: unknown[]) => ({ role: 'user', content });
const text = (t: string) => ({ type: 'text', text: t });
const image = (url: string, detail?: string) => ({
  type: 'image_url',
  image_url: detail === undefined ? { url } : { url, detail },
});
const audio = (data: string, format = 'wav') => ({ type: 'input_audio', input_audio: { data, format } });
const file = (members: Record<string, unknown>) => ({ type: 'file', file: members });
const asked = (...content: unknown[]) => ({ model: 'auto', messages: [user(...content)] });

interface Refusal {
  code: string;
  param: string | null;
  message: string;
}

/** The door's 400: its code, the OpenAI param it names and its message. */
function refusal(run: () => unknown): Refusal {
  try {
    run();
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    expect(error.status).toBe(400);
    const issues = (error.details?.issues as { path: string }[] | undefined) ?? [];
    const param = (error.details?.param as string | undefined) ?? openaiParamOf(issues[0]?.path ?? '');
    return { code: error.code, param, message: error.message };
  }
  throw new Error('expected a refusal');
}

describe('Chat Completions media parts → a user turn’s media', () => {
  it('maps an image data URL to a base64 image part, the text parts staying the turn’s content', () => {
    const request = chatRequest(asked(text('What is in this picture?'), image(pngUrl)));
    expect(request.conversation).toEqual([
      {
        role: 'user',
        content: 'What is in this picture?',
        media: [{ type: 'image', mimeType: 'image/png', source: { kind: 'base64', data: png } }],
      },
    ]);
    expect(reasonRequestSchema.safeParse(request).success).toBe(true);
  });

  it('maps a file part’s data URL to a PDF part with its filename, and bare PDF base64 too', () => {
    const named = chatRequest(
      asked(text('Summarize.'), file({ file_data: pdfUrl, filename: 'invoice.pdf' })),
    );
    const bare = chatRequest(asked(file({ file_data: pdf })));
    const part = { type: 'file', mimeType: 'application/pdf', source: { kind: 'base64', data: pdf } };
    expect(named.conversation?.[0]).toEqual({
      role: 'user',
      content: 'Summarize.',
      media: [{ ...part, filename: 'invoice.pdf' }],
    });
    expect(bare.conversation?.[0]).toEqual({ role: 'user', content: '', media: [part] });
  });

  it('maps input_audio to an audio part: wav → audio/wav, mp3 → audio/mpeg', () => {
    const request = chatRequest(asked(audio(wav), audio(wav, 'mp3')));
    expect(request.conversation?.[0]).toMatchObject({
      media: [
        { type: 'audio', mimeType: 'audio/wav', source: { kind: 'base64', data: wav } },
        { type: 'audio', mimeType: 'audio/mpeg', source: { kind: 'base64', data: wav } },
      ],
    });
  });

  it('joins the text parts and keeps the media in their order, after the text', () => {
    const request = chatRequest(
      asked(image(pngUrl), text('first'), audio(wav), text('second'), file({ file_data: pdfUrl })),
    );
    const turn = request.conversation?.[0];
    expect(turn).toMatchObject({ role: 'user', content: 'first\nsecond' });
    expect(turn?.role === 'user' && turn.media?.map((m) => m.type)).toEqual(['image', 'audio', 'file']);
  });

  it('reads image/jpg as image/jpeg, and a MIME type in any case', () => {
    const request = chatRequest(asked(image(`data:IMAGE/JPG;base64,${png}`)));
    expect(request.conversation?.[0]).toMatchObject({ media: [{ mimeType: 'image/jpeg' }] });
  });

  it('maps an https image URL to a url source, its type from the extension, and passes valve.mediaPolicy on', () => {
    const url = 'https://example.com/cats/tabby.JPG?size=large';
    const request = chatRequest({ ...asked(image(url)), valve: { mediaPolicy: { allowUrls: true } } });
    expect(request.conversation?.[0]).toMatchObject({
      media: [{ type: 'image', mimeType: 'image/jpeg', source: { kind: 'url', url } }],
    });
    expect(request.mediaPolicy).toEqual({ allowUrls: true });
  });

  it('refuses a URL source unless valve.mediaPolicy.allowUrls, naming the part', () => {
    const got = refusal(() => chat(asked(text('x'), image('https://example.com/a.png'))));
    expect(got).toMatchObject({
      code: 'request.media_refused',
      param: 'messages[0].content[1].image_url.url',
    });
    expect(got.message).toMatch(/allowUrls/);
  });

  it('maps a file_id to a fileId source in the pinned model’s provider, and refuses it when Valve chooses', () => {
    const pinned = chatRequest({ model: 'sim/balanced', messages: [user(file({ file_id: 'file-abc123' }))] });
    expect(pinned.conversation?.[0]).toMatchObject({
      media: [
        {
          type: 'file',
          mimeType: 'application/pdf',
          source: { kind: 'fileId', fileId: 'file-abc123', provider: 'sim' },
        },
      ],
    });
    const byPolicy = chatRequest({
      model: 'auto',
      messages: [user(file({ file_id: 'file-abc123' }))],
      valve: { modelPolicy: { pinned: { provider: 'openai', model: 'gpt-5.4-mini' } } },
    });
    expect(byPolicy.conversation?.[0]).toMatchObject({ media: [{ source: { provider: 'openai' } }] });
    const got = refusal(() => chat(asked(file({ file_id: 'file-abc123' }))));
    expect(got.param).toBe('messages[0].content[0].file.file_id');
    expect(got.message).toMatch(/pin a model/);
  });

  it.each([
    [
      'an image of a type no provider takes',
      image(`data:image/bmp;base64,${png}`),
      'messages[0].content[0].image_url.url',
      /image\/png.*not image\/bmp/,
    ],
    ['a PDF in an image part', image(pdfUrl), 'messages[0].content[0].image_url.url', /not application\/pdf/],
    [
      'a data URL that is not base64',
      image('data:image/png,rawbytes'),
      'messages[0].content[0].image_url.url',
      /base64 data URL/,
    ],
    [
      'base64 that is not',
      image('data:image/png;base64,abc!'),
      'messages[0].content[0].image_url.url',
      /base64/,
    ],
    ['an http URL', image('http://example.com/a.png'), 'messages[0].content[0].image_url.url', /https/],
    [
      'a URL whose type Valve cannot tell',
      image('https://example.com/image?id=3'),
      'messages[0].content[0].image_url.url',
      /extension/,
    ],
    [
      'an unknown member',
      { type: 'image_url', image_url: { url: pngUrl, size: 3 } },
      'messages[0].content[0].image_url.size',
      /unknown field/,
    ],
    ['an unknown detail', image(pngUrl, 'ultra'), 'messages[0].content[0].image_url.detail', /.+/],
    [
      'an audio format Valve does not take',
      audio(wav, 'ogg'),
      'messages[0].content[0].input_audio.format',
      /.+/,
    ],
    [
      'audio sent as a data URL',
      audio(`data:audio/wav;base64,${wav}`),
      'messages[0].content[0].input_audio.data',
      /base64/,
    ],
    [
      'a text file',
      file({ file_data: `data:text/plain;base64,${png}` }),
      'messages[0].content[0].file.file_data',
      /PDF only/,
    ],
    [
      'bare base64 that is not a PDF',
      file({ file_data: png }),
      'messages[0].content[0].file.file_data',
      /PDF/,
    ],
    [
      'a file with both sources',
      file({ file_data: pdfUrl, file_id: 'file-1' }),
      'messages[0].content[0].file',
      /only one/,
    ],
    ['a file with none', file({ filename: 'a.pdf' }), 'messages[0].content[0].file', /needs one of/],
    [
      'a filename of two lines',
      file({ file_data: pdfUrl, filename: 'a\nb.pdf' }),
      'messages[0].content[0].file.filename',
      /one line/,
    ],
    [
      'a part type OpenAI does not define',
      { type: 'video_url', video_url: { url: 'x' } },
      'messages[0].content[0]',
      /video_url/,
    ],
  ])('refuses %s, naming the member', (_, part, param, why) => {
    const got = refusal(() => chat(asked(part)));
    expect(got).toMatchObject({ code: 'request.invalid', param });
    expect(got.message).toMatch(why);
  });

  it('refuses an image over the per-image limit, naming the part and the limit', () => {
    const big = 'A'.repeat(Math.ceil((mediaLimits.imageBytes + 3) / 3) * 4);
    const got = refusal(() => chat(asked(image(`data:image/png;base64,${big}`))));
    expect(got.param).toBe('messages[0].content[0].image_url.url');
    expect(got.message).toContain(String(mediaLimits.imageBytes));
  });

  it('refuses the part past the per-message and per-request counts', () => {
    const eleven = Array.from({ length: mediaLimits.partsPerItem + 1 }, () => image(pngUrl));
    // The text part is content[0]: the eleventh image is content[11].
    expect(refusal(() => chat(asked(text('x'), ...eleven))).param).toBe(
      'messages[0].content[11].image_url.url',
    );
    const ten = Array.from({ length: mediaLimits.partsPerItem }, () => image(pngUrl));
    const three = [user(...ten), user(...ten), user(image(pngUrl))];
    expect(refusal(() => chat({ model: 'auto', messages: three })).param).toBe(
      'messages[2].content[0].image_url.url',
    );
  });

  it.each([
    ['system', { role: 'system', content: [image(pngUrl)] }],
    ['developer', { role: 'developer', content: [text('x'), image(pngUrl)] }],
    ['assistant', { role: 'assistant', content: [image(pngUrl)] }],
  ])('refuses media in a %s message, naming the part and saying where media go', (_, message) => {
    const got = refusal(() => chat({ model: 'auto', messages: [{ role: 'user', content: 'hi' }, message] }));
    expect(got.param).toMatch(/^messages\[1\]\.content\[\d\]$/);
    expect(got.message).toMatch(/user messages/);
  });

  it('refuses media in a tool message, naming the part', () => {
    const got = refusal(() =>
      chat({
        model: 'auto',
        messages: [
          { role: 'user', content: 'hi' },
          {
            role: 'assistant',
            tool_calls: [{ id: 'c', type: 'function', function: { name: 't', arguments: '{}' } }],
          },
          { role: 'tool', tool_call_id: 'c', content: [image(pngUrl)] },
        ],
        tools: [{ type: 'function', function: { name: 't' } }],
      }),
    );
    expect(got.param).toBe('messages[2].content[0]');
    expect(got.message).toMatch(/user messages/);
  });

  it('reports an image detail other than auto as a knob it did not apply', () => {
    const body = chatRequestSchema.parse(
      asked(image(pngUrl, 'low'), image(pngUrl, 'auto'), image(pngUrl, 'original'), image(pngUrl)),
    ) as ChatRequest;
    expect(ignoredChatKnobs(body)).toEqual([
      { param: 'messages[0].content[0].image_url.detail', value: 'low' },
      { param: 'messages[0].content[2].image_url.detail', value: 'original' },
    ]);
  });
});

describe('Responses API media parts → a user turn’s media', () => {
  const input = (...content: unknown[]) => ({ model: 'auto', input: [{ role: 'user', content }] });
  const inputImage = (members: Record<string, unknown>) => ({
    type: 'input_image',
    detail: 'auto',
    ...members,
  });
  const inputFile = (members: Record<string, unknown>) => ({ type: 'input_file', ...members });

  it('maps input_image and input_file data to media, input_text to the content', () => {
    const request = responsesRequest(
      input(
        { type: 'input_text', text: 'Compare these.' },
        inputImage({ image_url: pngUrl }),
        inputFile({ file_data: pdfUrl, filename: 'a.pdf' }),
      ),
    );
    expect(request.conversation).toEqual([
      {
        role: 'user',
        content: 'Compare these.',
        media: [
          { type: 'image', mimeType: 'image/png', source: { kind: 'base64', data: png } },
          {
            type: 'file',
            mimeType: 'application/pdf',
            source: { kind: 'base64', data: pdf },
            filename: 'a.pdf',
          },
        ],
      },
    ]);
    expect(reasonRequestSchema.safeParse(request).success).toBe(true);
  });

  it('maps file_url to a url source and file_id to the pinned provider’s store', () => {
    const url = 'https://example.com/report.pdf';
    const request = responsesRequest({
      ...input(inputFile({ file_url: url }), inputFile({ file_id: 'file-9' })),
      model: 'sim/deep',
      valve: { mediaPolicy: { allowUrls: true } },
    });
    expect(request.conversation?.[0]).toMatchObject({
      media: [
        { type: 'file', mimeType: 'application/pdf', source: { kind: 'url', url } },
        { type: 'file', source: { kind: 'fileId', fileId: 'file-9', provider: 'sim' } },
      ],
    });
  });

  it.each([
    ['an image by file id', inputImage({ file_id: 'file-1' }), 'input[0].content[0].file_id', /file id/],
    [
      'an image with two sources',
      inputImage({ image_url: pngUrl, file_id: 'file-1' }),
      'input[0].content[0]',
      /only one/,
    ],
    [
      'a file by id when Valve chooses the model',
      inputFile({ file_id: 'file-1' }),
      'input[0].content[0].file_id',
      /pin a model/,
    ],
    [
      'a file URL that is not a PDF',
      inputFile({ file_url: 'https://example.com/a.docx' }),
      'input[0].content[0].file_url',
      /PDF only/,
    ],
    [
      'audio, which a Responses message does not carry',
      { type: 'input_audio', input_audio: { data: wav, format: 'wav' } },
      'input[0].content[0]',
      /Chat Completions/,
    ],
    [
      'an unknown member',
      inputImage({ image_url: pngUrl, size: 1 }),
      'input[0].content[0].size',
      /unknown field/,
    ],
  ])('refuses %s, naming the member', (_, part, param, why) => {
    const got = refusal(() => responses(input(part)));
    expect(got.param).toBe(param);
    expect(got.message).toMatch(why);
  });

  it('refuses a URL source unless valve.mediaPolicy.allowUrls', () => {
    const got = refusal(() => responses(input(inputImage({ image_url: 'https://example.com/a.webp' }))));
    expect(got).toMatchObject({ code: 'request.media_refused', param: 'input[0].content[0].image_url' });
  });

  it('refuses media anywhere but a user message', () => {
    const assistant = {
      model: 'auto',
      input: [{ role: 'assistant', content: [inputImage({ image_url: pngUrl })] }],
    };
    expect(refusal(() => responses(assistant)).param).toBe('input[0].content[0]');
    const output = {
      model: 'auto',
      input: [
        { type: 'function_call', call_id: 'c', name: 't', arguments: '{}' },
        { type: 'function_call_output', call_id: 'c', output: [inputImage({ image_url: pngUrl })] },
      ],
    };
    const got = refusal(() => responses(output));
    expect(got.param).toBe('input[1].output[0]');
    expect(got.message).toMatch(/user messages/);
  });

  it('reports a detail other than auto as a knob it did not apply', () => {
    const body = responsesRequestSchema.parse(
      input(
        inputImage({ image_url: pngUrl, detail: 'high' }),
        inputFile({ file_data: pdfUrl, detail: 'low' }),
      ),
    );
    expect(ignoredResponsesKnobs(body)).toEqual([
      { param: 'input[0].content[0].detail', value: 'high' },
      { param: 'input[0].content[1].detail', value: 'low' },
    ]);
  });

  it('reports image.context_compression other than auto as a knob it did not apply', () => {
    const knobs = (value: string) =>
      ignoredResponsesKnobs(
        responsesRequestSchema.parse({ model: 'auto', input: 'x', image: { context_compression: value } }),
      );
    expect(knobs('enabled')).toEqual([{ param: 'image.context_compression', value: 'enabled' }]);
    expect(knobs('auto')).toEqual([]);
  });
});
