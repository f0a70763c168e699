import type { PromptMode } from '../contracts/reason-request';
import { chatTemplateTokenPattern, neutralizeToken } from './chat-template-tokens';
import { datamarkBody } from './datamark-body';
import { encodeBase64Text } from './encode-base64-text';
import { encodeRegionBody } from './encode-region-body';
import { lineEscape, linesSpecial } from './lines-body';
import { type NormalizeCounts, normalizeText } from './normalize-text';
import { isPlainText } from './plain-text';
import { truncateText } from './truncate-text';

export interface RegionBody extends NormalizeCounts {
  /** The encoded body: what `encodeRegionBody` gives for the normalized (and cut) text. */
  body: string;
  truncated: boolean;
}

// One pattern finds both what normalization changes in plain text (chat-template tokens) and what the
// mode escapes, so a plain region is normalized and encoded in a single native pass. Tokens are tried
// first at every position, exactly as the token pass before the escaping pass would find them; a
// neutralized token holds none of the escaped characters (its brackets are fullwidth look-alikes).
const tokens = chatTemplateTokenPattern.source;
const tagsPattern = new RegExp(`${tokens}|[&<>"]`, 'gi');
const linesPattern = new RegExp(`${tokens}|${linesSpecial.source}`, 'gi');
const jsonPattern = new RegExp(`${tokens}|[&<>"\\\\\\x00-\\x1F]`, 'gi');

const entities: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };

// JSON.stringify's escapes for the units it escapes in a string, plus the three the json mode adds.
const jsonEscapes: Record<string, string> = { '&': '\\u0026', '<': '\\u003c', '>': '\\u003e' };
for (const char of ['"', '\\', ...Array.from({ length: 0x20 }, (_, unit) => String.fromCharCode(unit))]) {
  jsonEscapes[char] = JSON.stringify(char).slice(1, -1);
}

/** Plain text (see `isPlainText`) normalized and encoded in the mode, counting neutralized tokens. */
function writePlain(text: string, mode: PromptMode, mark: string): { body: string; neutralized: number } {
  let neutralized = 0;
  const token = (match: string) => {
    neutralized++;
    return neutralizeToken(match);
  };
  switch (mode) {
    case 'tags': {
      const body = text.replace(tagsPattern, (m) => (m.length === 1 ? (entities[m] ?? m) : token(m)));
      return { body, neutralized };
    }
    case 'tags+lines': {
      const body = text.replace(linesPattern, (m) => (m.length === 1 ? lineEscape(m) : token(m)));
      return { body, neutralized };
    }
    case 'tags+datamark':
      return { body: datamarkBody(text.replace(chatTemplateTokenPattern, token), mark), neutralized };
    case 'tags+base64':
      return { body: encodeBase64Text(text.replace(chatTemplateTokenPattern, token)), neutralized };
    case 'json': {
      // A neutralized token can hold a tab (`###\tSystem:`), which JSON escapes.
      const escaped = text.replace(jsonPattern, (m) =>
        m.length === 1 ? (jsonEscapes[m] ?? m) : token(m).replace(/\t/g, '\\t'),
      );
      return { body: `"${escaped}"`, neutralized };
    }
  }
}

/**
 * A region's body for an item's raw text: normalized as `normalizeText` does (`mark` stripped in
 * datamark mode), cut to `maxChars` as `truncateText` does, and encoded as `encodeRegionBody` does —
 * byte for byte the same, in one pass over plain text, which is most text. Anything else (lone
 * surrogates, invisible or bidi characters, text that NFC could change, a cut) takes the general path.
 */
export function writeRegionBody(
  input: string,
  mode: PromptMode,
  mark: string,
  maxChars?: number,
): RegionBody {
  // Plain text keeps its length through normalization (a neutralized token has as many units as the
  // token), so a plain input no longer than the limit is not cut.
  if (isPlainText(input) && (maxChars === undefined || input.length <= maxChars)) {
    const { body, neutralized } = writePlain(input, mode, mark);
    return { body, removed: 0, neutralized, replaced: 0, truncated: false };
  }
  const normalized = normalizeText(input, mode === 'tags+datamark' ? mark : undefined);
  const cut =
    maxChars === undefined
      ? { text: normalized.text, truncated: false }
      : truncateText(normalized.text, maxChars);
  return {
    body: encodeRegionBody(cut.text, mode, mark),
    removed: normalized.removed,
    neutralized: normalized.neutralized,
    replaced: normalized.replaced,
    truncated: cut.truncated,
  };
}
