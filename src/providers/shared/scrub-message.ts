// A provider's error text reaches the caller (the error body, the trace) and may reach a log. It is
// written by someone else and has been seen to carry key fragments, Valve's own system policy with
// its canary and nonce, and the caller's content echoed back. So every message a ModelError carries
// passes through here first: keys and anything key-like are redacted, Valve's prompt and any text the
// request sent are cut out, and what is left is bounded.

/** The longest message a ModelError carries, in UTF-16 units. */
export const maxMessageChars = 300;
/** How much of a provider's text is looked at at all. */
const maxScannedChars = 4096;
/** A run of at least this many characters that also occurs in the request counts as echoed content. */
const echoWindow = 16;

export const redacted = '[redacted]';
const cut = '[…]';

const keyLike: readonly RegExp[] = [
  /\bBearer\s+\S+/gi,
  /\b(?:sk|pk|rk)-[A-Za-z0-9_*-]{6,}/g, // OpenAI and Anthropic (sk-ant-…), masked or not
  /\bAIza[0-9A-Za-z_-]{10,}/g, // Google API keys
  /\b[0-9a-f]{16,}\b/gi, // hex secrets, and Valve's nonce (32) and canary (16)
  /[A-Za-z0-9+/_-]{32,}={0,2}/g, // long base64 or url-safe tokens
];
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
  return out;
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
 * A provider's error message made safe to show a tenant and to log: keys redacted, Valve's prompt and
 * echoes of the request cut out, control characters flattened, at most `maxMessageChars` long.
 * Pure and idempotent on its own output.
 */
export function scrubProviderMessage(message: string, context: ScrubContext = {}): string {
  let text = message.slice(0, maxScannedChars);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: flattening control characters is the point.
  text = text.replace(/[\x00-\x1F\x7F-\x9F\u2028\u2029]+/g, ' ');
  text = redactKeys(text, context.keys ?? []);
  const prompt = valvePrompt.exec(text);
  if (prompt) text = `${text.slice(0, prompt.index)}${cut}`;
  if (context.sent !== undefined) text = removeEchoes(text, context.sent);
  text = text.replace(/\s+/g, ' ').trim();
  if (text.length > maxMessageChars) text = `${text.slice(0, maxMessageChars - 1)}…`;
  return text === '' ? 'The provider gave no usable message.' : text;
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
