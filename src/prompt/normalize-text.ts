import { chatTemplateTokenPattern, neutralizeToken } from './chat-template-tokens';
import { invisibleUnit, removeInvisible } from './invisible-characters';

/** What normalization changed in one text, for the response's warnings. */
export interface NormalizeCounts {
  /** Default-ignorable and blank characters removed (see `invisible-characters.ts`). */
  removed: number;
  /** Chat-template tokens neutralized. */
  neutralized: number;
  /** Lone surrogates replaced by U+FFFD (they have no UTF-8 form). */
  replaced: number;
}

export interface NormalizedText extends NormalizeCounts {
  text: string;
}

const bracketToken = /\[\/?[A-Za-z_]{3,15}\]/;
const turnToken = /_of_turn>/i;

// Cheap scans (substring search, literal-led patterns) that rule out a chat-template token before the
// full pattern runs: most text holds none.
function mayHoldToken(text: string): boolean {
  return (
    text.includes('<<') ||
    text.includes('<|') ||
    text.includes('###') ||
    bracketToken.test(text) ||
    turnToken.test(text)
  );
}

const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const nonAscii = /[\u0080-\uFFFF]/;

// `String.prototype.isWellFormed` (ES2024) is native in workerd and Node 20 and far faster than a regex.
const wellFormed = (String.prototype as { isWellFormed?: (this: string) => boolean }).isWellFormed;
function isWellFormed(text: string): boolean {
  if (wellFormed) return wellFormed.call(text);
  loneSurrogate.lastIndex = 0;
  return !loneSurrogate.test(text);
}

function countMatches(text: string, pattern: RegExp): number {
  pattern.lastIndex = 0;
  let count = 0;
  while (pattern.exec(text) !== null) count++;
  return count;
}

/**
 * Normalizes text before it is escaped: lone surrogates become U+FFFD, invisible and bidi characters
 * (and `strip`, datamark's private-use character) are removed, the rest is put in NFC, and chat-template
 * tokens are neutralized. Everything changed is counted; visible text is never silently dropped.
 * Idempotent, and a fast path leaves plain ASCII without any of those untouched.
 */
export function normalizeText(input: string, strip?: string): NormalizedText {
  let text = input;
  let removed = 0;
  let replaced = 0;
  let neutralized = 0;
  const wide = nonAscii.test(text);
  if (wide && !isWellFormed(text)) {
    replaced = countMatches(text, loneSurrogate);
    text = text.replace(loneSurrogate, '\uFFFD');
  }
  if (wide) {
    if (invisibleUnit.test(text)) {
      const stripped = removeInvisible(text);
      text = stripped.text;
      removed += stripped.removed;
    }
    if (strip !== undefined && text.includes(strip)) {
      const parts = text.split(strip);
      removed += parts.length - 1;
      text = parts.join('');
    }
    text = text.normalize('NFC');
  }
  if (mayHoldToken(text)) {
    text = text.replace(chatTemplateTokenPattern, (token) => {
      neutralized++;
      return neutralizeToken(token);
    });
  }
  return { text, removed, neutralized, replaced };
}
