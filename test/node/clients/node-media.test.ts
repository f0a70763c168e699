import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { HumanMessage } from '@langchain/core/messages';
import { ChatOpenAI } from '@langchain/openai';
import { generateText } from 'ai';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { base64Of, pdfOf, pngOf, wavOf } from '../../helpers/media-samples';
import { type Door, expectReceiptVerifies, receiptIdOf, startDoor } from '../openai/door-harness';

// The Node clients send images, PDFs and audio through the OpenAI door as they send them to OpenAI,
// with only baseURL and apiKey changed: the `openai` SDK (Chat Completions and Responses), the Vercel
// AI SDK's OpenAI-compatible provider and LangChain's ChatOpenAI. A part that reaches the pipeline as
// media plans the call onto the model that reads it (the text-only model answers nothing here), and
// the receipt an auditor derives from the body as sent, media and all, verifies.

const sim = (model: string, quality: number, inputModalities: string[]) => ({
  provider: 'sim',
  model,
  regions: ['lab'],
  priceUsdPerMTok: { input: 1, output: 4 },
  quality,
  latency: { ttftMsP50: 40, ttftMsP90: 80, outputTokensPerSec: 400 },
  contextTokens: 64_000,
  maxOutputTokens: 4096,
  capabilities: { tools: true, json: 'native', reasoning: false, base64Data: true },
  inputModalities,
  maxPrivacy: 'confidential',
  simulate: {},
});

// The text-only model is the best: a request is planned elsewhere only because of what it carries.
const mediaCatalog = {
  providers: [{ id: 'sim', kind: 'sim' }],
  models: [
    sim('text', 95, ['text']),
    sim('vision', 80, ['text', 'image', 'pdf']),
    sim('listen', 60, ['text', 'image', 'audio', 'pdf']),
  ],
};

const png = pngOf(640, 480);
const pdf = pdfOf(2);
const wav = wavOf(1);
const pngUrl = `data:image/png;base64,${base64Of(png)}`;
const pdfUrl = `data:application/pdf;base64,${base64Of(pdf)}`;

let door: Door;
let openai: OpenAI;

beforeAll(async () => {
  door = await startDoor(mediaCatalog);
  openai = new OpenAI({ baseURL: door.baseURL, apiKey: door.valve.key, fetch: door.fetch, maxRetries: 0 });
}, 60_000);
afterAll(() => door?.stop());
beforeEach(() => door.reset());

/** The media parts of the one user message the client sent, as the door received them. */
function sentParts(): { type: string }[] {
  const sent = door.exchanges.at(-1)?.body as {
    messages?: { content: unknown }[];
    input?: { content: unknown }[];
  };
  const content = (sent.messages ?? sent.input ?? []).at(-1)?.content;
  return (Array.isArray(content) ? content : []) as { type: string }[];
}

describe('the openai SDK sends media through the door', () => {
  it('an image_url data URL: answered by a model that reads images, the receipt verifying', async () => {
    const completion = await openai.chat.completions.create({
      model: 'auto',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is in this picture?' },
            { type: 'image_url', image_url: { url: pngUrl, detail: 'auto' } },
          ],
        },
      ],
    });
    expect(completion.choices[0]?.message.content).toMatch(/^\[simulated by sim\/vision\]/);
    await expectReceiptVerifies(door, receiptIdOf(completion.id));
  });

  it('a PDF file part and input_audio: answered by the one model that reads audio', async () => {
    const completion = await openai.chat.completions.create({
      model: 'auto',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Does the recording match the invoice?' },
            { type: 'file', file: { file_data: pdfUrl, filename: 'invoice.pdf' } },
            { type: 'input_audio', input_audio: { data: base64Of(wav), format: 'wav' } },
          ],
        },
      ],
    });
    expect(completion.choices[0]?.message.content).toMatch(/^\[simulated by sim\/listen\]/);
    await expectReceiptVerifies(door, receiptIdOf(completion.id));
  });

  it('responses.create with input_image and input_file, streamed', async () => {
    const stream = await openai.responses.create({
      model: 'auto',
      stream: true,
      input: [
        {
          role: 'user',
          content: [
            { type: 'input_text', text: 'Compare the screenshot and the invoice.' },
            { type: 'input_image', image_url: pngUrl, detail: 'auto' },
            { type: 'input_file', file_data: pdfUrl, filename: 'invoice.pdf' },
          ],
        },
      ],
    });
    let text = '';
    let id = '';
    for await (const event of stream) {
      if (event.type === 'response.output_text.delta') text += event.delta;
      if (event.type === 'response.completed') id = event.response.id;
    }
    expect(text).toMatch(/^\[simulated by sim\/vision\]/);
    await expectReceiptVerifies(door, receiptIdOf(id));
  });

  it('an image URL without valve.mediaPolicy.allowUrls: a BadRequestError naming the part', async () => {
    const call = openai.chat.completions.create({
      model: 'auto',
      messages: [
        { role: 'user', content: [{ type: 'image_url', image_url: { url: 'https://example.com/a.png' } }] },
      ],
    });
    await expect(call).rejects.toMatchObject({
      status: 400,
      param: 'messages[0].content[0].image_url.url',
      code: 'request.media_refused',
    });
  });
});

describe('the Vercel AI SDK sends an image part through the door', () => {
  it('generateText with an image part: sent as an image_url data URL, answered by a model that reads it', async () => {
    const valve = createOpenAICompatible({
      name: 'valve',
      baseURL: door.baseURL,
      apiKey: door.valve.key,
      fetch: door.fetch,
    });
    const result = await generateText({
      model: valve('auto'),
      maxRetries: 0,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is in this picture?' },
            { type: 'image', image: png, mediaType: 'image/png' },
          ],
        },
      ],
    });
    expect(sentParts().map((part) => part.type)).toEqual(['text', 'image_url']);
    expect(result.text).toMatch(/^\[simulated by sim\/vision\]/);
    await expectReceiptVerifies(door, receiptIdOf(result.response.id));
  });
});

describe('LangChain’s ChatOpenAI sends media through the door', () => {
  const model = () =>
    new ChatOpenAI({
      model: 'auto',
      apiKey: door.valve.key,
      maxRetries: 0,
      configuration: { baseURL: door.baseURL, fetch: door.fetch },
    });

  it('a HumanMessage with an image_url content block', async () => {
    const message = await model().invoke([
      new HumanMessage({
        content: [
          { type: 'text', text: 'What is in this picture?' },
          { type: 'image_url', image_url: { url: pngUrl } },
        ],
      }),
    ]);
    expect(message.content).toMatch(/^\[simulated by sim\/vision\]/);
    await expectReceiptVerifies(door, receiptIdOf(message.id));
  });

  it('standard PDF and audio blocks, which ChatOpenAI sends as file and input_audio parts', async () => {
    const message = await model().invoke([
      new HumanMessage({
        content: [
          { type: 'text', text: 'Does the recording match the invoice?' },
          {
            type: 'file',
            source_type: 'base64',
            mime_type: 'application/pdf',
            data: base64Of(pdf),
            metadata: { filename: 'invoice.pdf' },
          },
          { type: 'audio', source_type: 'base64', mime_type: 'audio/wav', data: base64Of(wav) },
        ],
      }),
    ]);
    expect(sentParts().map((part) => part.type)).toEqual(['text', 'file', 'input_audio']);
    expect(message.content).toMatch(/^\[simulated by sim\/listen\]/);
    await expectReceiptVerifies(door, receiptIdOf(message.id));
  });
});
