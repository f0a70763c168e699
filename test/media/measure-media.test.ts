import { describe, expect, it } from 'vitest';
import type { MediaPart } from '../../src/contracts/media-part';
import { audioSeconds } from '../../src/media/audio-seconds';
import { countPdfPages } from '../../src/media/count-pdf-pages';
import { mediaPartTokens } from '../../src/media/measure-media';
import { imageTokens, pdfPageTokens, unknownPdfPages } from '../../src/model/media-tokens';
import { base64Of, gifOf, pdfOf, pngOf, wavOf } from '../helpers/media-samples';

// The media estimates the cost cap rests on: known answers worked by hand from each provider's
// published rule (the figure is the largest of them), the page count of a PDF whose page tree is
// compressed, and a WAV header that lies about its rate.

const part = (type: MediaPart['type'], mimeType: string, bytes: Uint8Array): MediaPart => ({
  type,
  mimeType,
  source: { kind: 'base64', data: base64Of(bytes) },
});

async function deflate(text: string): Promise<Uint8Array> {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream('deflate'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

describe('image tokens', () => {
  it('takes the largest provider figure: 1600×1200 is OpenAI’s patch rule, 1536 patches × 2.46 = 3779', () => {
    // OpenAI tiles: 1024×768 → 4 tiles → 765; Anthropic: 1.15 MP / 750 → 1534; Gemini: 3×2 tiles → 1548.
    expect(imageTokens(1600, 1200)).toBe(3779);
  });

  it('charges a small image Gemini’s 258, the largest rule for it', () => {
    expect(imageTokens(100, 100)).toBe(258);
  });

  // The unknown size was 4096²; Anthropic accepts 8000² and Valve's Gemini rule prices that higher, so
  // the old figure was the bug.
  it('reads the size from the PNG header, and assumes 8000² for what it cannot read', async () => {
    expect(await mediaPartTokens(part('image', 'image/png', pngOf(100, 100)))).toBe(258);
    expect(await mediaPartTokens(part('image', 'image/png', pngOf(1600, 1200)))).toBe(3779);
    const url: MediaPart = {
      type: 'image',
      mimeType: 'image/png',
      source: { kind: 'url', url: 'https://x.test/a.png' },
    };
    expect(await mediaPartTokens(url)).toBe(imageTokens(8000, 8000));
    const junk = part('image', 'image/png', new Uint8Array([1, 2, 3, 4]));
    expect(await mediaPartTokens(junk)).toBe(imageTokens(8000, 8000));
  });
});

describe('image tokens from a file that lies', () => {
  it('prices a 1×1 GIF with a 4000×4000 frame as the frame, not the screen (it was 258 tokens)', async () => {
    const gif = gifOf(1, 1, [{ width: 4000, height: 4000 }]);
    expect(await mediaPartTokens(part('image', 'image/gif', gif))).toBe(imageTokens(4000, 4000));
    expect(imageTokens(4000, 4000)).toBeGreaterThan(imageTokens(1, 1));
  });
});

describe('PDF pages', () => {
  it('counts the pages of a plain PDF', async () => {
    expect(await countPdfPages(pdfOf(3))).toEqual({
      pages: 3,
      basis: 'read',
      why: '3 pages: /Type /Page, /Count and /Kids agree',
    });
    expect(await mediaPartTokens(part('file', 'application/pdf', pdfOf(3)))).toBe(3 * pdfPageTokens);
  });

  it('counts pages kept in a compressed object stream (PDF 1.5), where no /Type /Page is visible', async () => {
    const pages = Array.from({ length: 7 }, () => '<< /Type /Page /Parent 2 0 R >>').join('\n');
    const packed = await deflate(`<< /Type /Pages /Count 7 >>\n${pages}`);
    const head = new TextEncoder().encode(
      `%PDF-1.5\n5 0 obj\n<< /Type /ObjStm /N 8 /First 40 /Filter /FlateDecode /Length ${packed.length} >>\nstream\n`,
    );
    const tail = new TextEncoder().encode('\nendstream\nendobj\n%%EOF\n');
    const pdf = new Uint8Array([...head, ...packed, ...tail]);
    expect(new TextDecoder('latin1').decode(pdf)).not.toMatch(/\/Type\s*\/Page[^s]/);
    expect((await countPdfPages(pdf)).pages).toBe(7);
  });

  it('prices a PDF without a readable page at the limit: the most pages any provider accepts', async () => {
    expect(await countPdfPages(new TextEncoder().encode('%PDF-1.7\n%%EOF'))).toMatchObject({
      basis: 'limit',
    });
    expect(await mediaPartTokens(part('file', 'application/pdf', new TextEncoder().encode('%PDF-1.7')))).toBe(
      unknownPdfPages * pdfPageTokens,
    );
  });
});

describe('audio length', () => {
  it('reads a WAV’s length from its header: 10 s at 32 tokens a second', async () => {
    expect(audioSeconds(wavOf(10), 'audio/wav').seconds).toBe(10);
    expect(await mediaPartTokens(part('audio', 'audio/wav', wavOf(10)))).toBe(320);
  });

  it('does not believe a WAV header whose byte rate disagrees with its sample rate', () => {
    const wav = wavOf(10);
    new DataView(wav.buffer).setUint32(28, 4_000_000_000, true);
    // Bounded by the lowest rate any codec a WAV may hold has, 200 bit/s. This test used to expect MP3's
    // 8 kbit/s, which low-rate speech codecs in a WAV beat: that figure was the bug.
    expect(audioSeconds(wav, 'audio/wav').seconds).toBe(wav.length / 25);
  });
});
