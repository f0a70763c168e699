// What a media part costs in input tokens, before the call (docs/policy.md "Media"). Each figure is the
// most any provider Valve calls charges by its published rule, so an estimate may be high, never low,
// as the cost cap and the context-window check need. After the call the provider's own usage is billed.

/** OpenAI's tile rule (GPT-4o class, `detail: high`): fit 2048², shortest side 768, 170 per 512² tile + 85. */
function openaiTileTokens(width: number, height: number): number {
  let [w, h] = [width, height];
  const fit = Math.min(1, 2048 / Math.max(w, h));
  [w, h] = [w * fit, h * fit];
  const shortest = Math.min(1, 768 / Math.min(w, h));
  [w, h] = [w * shortest, h * shortest];
  return 85 + 170 * Math.ceil(w / 512) * Math.ceil(h / 512);
}

/** OpenAI's patch rule (GPT-4.1 mini/nano, o4-mini): 32² patches, at most 1,536, times up to 2.46. */
function openaiPatchTokens(width: number, height: number): number {
  const patches = Math.min(1536, Math.ceil(width / 32) * Math.ceil(height / 32));
  return Math.ceil(patches * 2.46);
}

/** Anthropic: width × height / 750 after scaling to a long edge of 1,568 and 1.15 megapixels. */
function anthropicTokens(width: number, height: number): number {
  const edge = Math.min(1, 1568 / Math.max(width, height));
  const area = Math.min(1, Math.sqrt(1_150_000 / (width * height)));
  const scale = Math.min(edge, area);
  return Math.ceil((width * scale * (height * scale)) / 750);
}

/** Gemini: 258 for an image within 384², else 258 per 768² tile. */
function geminiTokens(width: number, height: number): number {
  if (width <= 384 && height <= 384) return 258;
  return 258 * Math.ceil(width / 768) * Math.ceil(height / 768);
}

/**
 * The size assumed for an image whose size Valve cannot read (a URL, a file id, an unknown format): the
 * largest any provider documents accepting, Anthropic's 8000×8000 px ("The maximal dimensions per image
 * are 8000x8000 px", platform.claude.com/docs/en/build-with-claude/vision). It was 4096², which an
 * image Anthropic accepts, priced by Gemini's tile rule below, beat: 36 tiles against 121.
 */
export const unknownImageSide = 8000;

/** An image's input tokens: the most any provider's rule gives for its size. */
export function imageTokens(width = unknownImageSide, height = unknownImageSide): number {
  const [w, h] = [Math.max(1, width), Math.max(1, height)];
  return Math.max(openaiTileTokens(w, h), openaiPatchTokens(w, h), anthropicTokens(w, h), geminiTokens(w, h));
}

/**
 * A PDF page: Anthropic counts its text (1,500–3,000 tokens) and its image (about 1,600); Gemini 258
 * (560 for Gemini 3 by default, 1,120 at high media resolution) and OpenAI the text and an image. The
 * largest: 4,600.
 */
export const pdfPageTokens = 4600;

/**
 * The pages assumed for a PDF Valve cannot count (a URL, a file id, an encrypted or undecodable file):
 * the most pages any provider Valve calls accepts in one PDF, so it covers each one's bill.
 * - Anthropic: 600 pages a request (100 when the context window is under 1M tokens)
 *   (https://platform.claude.com/docs/en/build-with-claude/pdf-support).
 * - Gemini API: "long documents (up to 3600 pages)" (ai.google.dev document understanding, as mirrored
 *   at https://share.apidog.com/apidoc/docs-site/750674/doc-965859); Vertex AI lists 1,000 pages a file
 *   for Gemini 2.x, 900 for Gemini 3 Pro (560 tokens a page) and 3,000 for its newest models
 *   (https://cloud.google.com/vertex-ai/generative-ai/docs/multimodal/document-understanding).
 * - OpenAI: extracted text and an image of each page, no page limit stated, so bounded by the model's
 *   window (https://developers.openai.com/api/docs/guides/file-inputs); Workers AI takes no PDF.
 * The largest, Gemini's 3,600, at 4,600 tokens a page: 16,560,000 tokens, more than any model's window.
 */
export const unknownPdfPages = 3600;

export function pdfTokens(pages = unknownPdfPages): number {
  return Math.max(1, pages) * pdfPageTokens;
}

/** Gemini counts 32 tokens a second of audio; OpenAI's audio models fewer. */
export const audioTokensPerSecond = 32;

/**
 * The most audio any provider Valve calls takes in one prompt, assumed for audio Valve cannot measure
 * (a file id) and the most a measured clip is priced at: Gemini's 9.5 hours ("The maximum supported
 * length of audio data in a single prompt is 9.5 hours", ai.google.dev/gemini-api/docs/audio). A
 * provider refuses longer audio rather than bill it.
 */
export const unknownAudioSeconds = 34_200;

export function audioTokens(seconds = unknownAudioSeconds): number {
  return Math.ceil(Math.max(1, seconds) * audioTokensPerSecond);
}
