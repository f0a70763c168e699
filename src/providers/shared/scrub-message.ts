// A provider's error text reaches the caller (the error body, the trace) and may reach a log. It is
// written by someone else and has been seen to carry key fragments, Valve's own system policy with
// its canary and nonce, and the caller's content echoed back. So every message a ModelError carries
// passes through here first, and is cut down to what such a message may carry: printable ASCII (no
// zero-width, control or look-alike characters), with keys and anything key-like redacted — spelled
// out, chunked, case swapped or reversed as well as verbatim — Valve's prompt and any text the
// request sent cut out, and at most `maxMessageChars` long.

import { redactKeySpellings, spellsKey } from './key-spellings';

/** The longest message a ModelError carries, in UTF-16 units. */
export const maxMessageChars = 300;
/** How much of a provider's text is looked at at all. */
const maxScannedChars = 4096;
/** A run of at least this many characters that also occurs in the request counts as echoed content. */
const echoWindow = 16;

export const redacted = '[redacted]';
const cut = '[…]';

// Characters that change nothing a reader sees (zero-width spaces and joiners, soft hyphens, bidi marks)
// are dropped, so that a key split by them reads whole; controls and line breaks become spaces.
const invisible = /\p{Cf}+/gu;
// biome-ignore lint/suspicious/noControlCharactersInRegex: flattening control characters is the point.
const controls = /[\x00-\x1F\x7F-\x9F\u2028\u2029]+/g;
// What a message may carry: printable ASCII and the ellipsis of a cut. Anything else (another
// alphabet, full-width letters, symbols) becomes a space, so a key spelled between such characters
// reads as a spaced one.
const notCarried = /[^\x20-\x7E…]+/g;

const keyLike: readonly RegExp[] = [
  /\bBearer\s+\S+/gi,
  /\b(?:sk|pk|rk)-[A-Za-z0-9_*-]{6,}/g, // OpenAI and Anthropic (sk-ant-…), masked or not
  /\bAIza[0-9A-Za-z_-]{10,}/g, // Google API keys
  /\b[0-9a-f]{16,}\b/gi, // hex secrets, and Valve's nonce (32) and canary (16)
  /[A-Za-z0-9+/_-]{32,}={0,2}/g, // long base64 or url-safe tokens
];
// A run of letters and digits this long that mixes the two is a token, not a word.
const longRun = /[A-Za-z0-9]{20,}/g;
// A key spelled out a character or two at a time, or in short chunks that mix digits and letters or
// cases ("s k - p r o j", "7Qm 2Zt 9Lw"): this many such chunks in a row, each at most three other
// characters from the last, are redacted together.
const spelledOutChunks = 6;
const chunk = /[A-Za-z0-9]+/g;

function isCodeLike(part: string): boolean {
  if (part.length <= 2) return true;
  return part.length <= 8 && ((/\d/.test(part) && /[A-Za-z]/.test(part)) || /[a-z][A-Z]/.test(part));
}

/** `text` with every spelled-out run (see `spelledOutChunks`) replaced by `[redacted]`. */
function redactSpelledOut(text: string): string {
  const runs: [number, number][] = [];
  let run: { start: number; end: number; count: number } | undefined;
  const close = () => {
    if (run && run.count >= spelledOutChunks) runs.push([run.start, run.end]);
  };
  for (const { 0: part, index } of text.matchAll(chunk)) {
    const codeLike = isCodeLike(part);
    if (run && codeLike && index - run.end <= 3) {
      run.end = index + part.length;
      run.count++;
      continue;
    }
    close();
    run = codeLike ? { start: index, end: index + part.length, count: 1 } : undefined;
  }
  close();
  let out = text;
  for (const [start, end] of runs.reverse()) out = `${out.slice(0, start)}${redacted}${out.slice(end)}`;
  return out;
}

// `key: value`, `token=value`: the name stays, the value goes.
const namedSecret = /\b((?:api[_-]?key|x-api-key|key|token|secret|password)\s*[:=]\s*)["']?[^\s"',;]+/gi;
// Valve's system policy and region markers: from the first sign of either, the rest is prompt text.
const valvePrompt =
  /Valve prompt policy|<\/?data-|data-\[redacted\]|Data regions are enclosed|The material for this request is enclosed|reference number \[redacted\]/i;

function redactKeys(text: string, keys: readonly string[]): string {
  let out = text;
  for (const key of keys) if (key.length >= 8) out = out.split(key).join(redacted);
  out = out.replace(namedSecret, (_, name: string) => `${name}${redacted}`);
  for (const pattern of keyLike) out = out.replace(pattern, redacted);
  return out.replace(longRun, (run) => (/\d/.test(run) && /[A-Za-z]/.test(run) ? redacted : run));
}

/** `text` with every run of `echoWindow`+ characters that also occurs in `sent` replaced by `[…]`. */
function removeEchoes(text: string, sent: string): string {
  if (sent.length < echoWindow || text.length < echoWindow) return text;
  const covered = new Uint8Array(text.length);
  // Windows start at word boundaries only, which keeps this to a few dozen searches of the request.
  for (let i = 0; i + echoWindow <= text.length; i++) {
    if (i > 0 && /\w/.test(text[i - 1] ?? '') && /\w/.test(text[i] ?? '')) continue;
    if (sent.includes(text.slice(i, i + echoWindow))) covered.fill(1, i, i + echoWindow);
  }
  let out = '';
  for (let i = 0; i < text.length; i++) {
    if (!covered[i]) out += text[i];
    else if (i === 0 || !covered[i - 1]) out += cut;
  }
  return out;
}

export interface ScrubContext {
  /** The secrets the call used (its API key): removed wherever they appear. */
  keys?: readonly string[];
  /** Every string the request sent (its rendered prompt): echoes of it are cut out. */
  sent?: string;
}

/**
 * A provider's error message made safe to show a tenant and to log: printable ASCII only; keys and
 * key-like runs redacted however they are spelled; Valve's prompt and echoes of the request cut out;
 * at most `maxMessageChars` long. Pure and idempotent on its own output.
 */
export function scrubProviderMessage(message: string, context: ScrubContext = {}): string {
  const keys = context.keys ?? [];
  let text = message.slice(0, maxScannedChars).replace(invisible, '').replace(controls, ' ');
  text = redactKeys(text, keys);
  const prompt = valvePrompt.exec(text);
  if (prompt) text = `${text.slice(0, prompt.index)}${cut}`;
  // Echoes are found before other alphabets are blanked, so a prompt in any script is recognized.
  if (context.sent !== undefined) text = removeEchoes(text, context.sent);
  text = text.replace(notCarried, ' ');
  text = redactSpelledOut(redactKeySpellings(text, keys, redacted));
  text = text.replace(/\s+/g, ' ').trim();
  if (text.length > maxMessageChars) text = `${text.slice(0, maxMessageChars - 1)}…`;
  return text === '' ? 'The provider gave no usable message.' : text;
}

// A provider's error code and a request id are shown as they are only when they look like one:
// a code is snake_case words in one case (`invalid_request_error`, `RESOURCE_EXHAUSTED`) or a short
// number; a request id is one token of letters, digits and `_.:-`. Neither may spell a key.
const codeShape = /^(?:[a-z]{1,32}(?:_[a-z]{1,32}){0,5}|[A-Z]{1,32}(?:_[A-Z]{1,32}){0,5}|\d{1,6})$/;
const requestIdShape = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$/;

/** The provider's error code, or undefined when it is not code-shaped or spells one of `keys`. */
export function scrubProviderCode(
  code: string | undefined,
  keys: readonly string[] = [],
): string | undefined {
  return code !== undefined && code.length <= 64 && codeShape.test(code) && !spellsKey(code, keys)
    ? code
    : undefined;
}

/** The provider's request id, or undefined when it is not one token or spells one of `keys`. */
export function scrubRequestId(id: string | undefined, keys: readonly string[] = []): string | undefined {
  return id !== undefined && requestIdShape.test(id) && !spellsKey(id, keys) ? id : undefined;
}

/** Every string inside a JSON value (a wire body), joined: what `sent` compares against. */
export function stringsOf(value: unknown): string {
  const parts: string[] = [];
  const walk = (node: unknown): void => {
    if (typeof node === 'string') parts.push(node);
    else if (Array.isArray(node)) node.forEach(walk);
    else if (node !== null && typeof node === 'object') Object.values(node).forEach(walk);
  };
  walk(value);
  return parts.join('\n');
}
