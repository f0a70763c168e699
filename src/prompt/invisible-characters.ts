// The characters normalization removes: every Default_Ignorable_Code_Point (Unicode 17, DerivedCoreProperties.txt
// — soft hyphen, combining grapheme joiner, bidi controls, zero-width characters, Hangul fillers, Mongolian
// and other variation selectors, shorthand and musical format controls, the tag block and its reserved
// neighbours U+E0000–E0FFF) plus three that render as blank but are not default-ignorable: the braille
// blank U+2800 and the interlinear annotation controls U+FFF9–FFFB. A test walks every code point and
// checks this table against `\p{Default_Ignorable_Code_Point}`, so a new Unicode version cannot slip by.
//
// Written as UTF-16 units without the `u` flag, which V8 scans several times faster; text is well formed
// by the time it is used (lone surrogates are replaced first). U+DB40–DB43 lead the U+E0000–E0FFF pairs.
const bmp =
  '\\u00AD\\u034F\\u061C\\u115F\\u1160\\u17B4\\u17B5\\u180B-\\u180F\\u200B-\\u200F\\u202A-\\u202E\\u2060-\\u206F' +
  '\\u2800\\u3164\\uFE00-\\uFE0F\\uFEFF\\uFFA0\\uFFF0-\\uFFFB';
const astral = '\\uD82F[\\uDCA0-\\uDCA3]|\\uD834[\\uDD73-\\uDD7A]|[\\uDB40-\\uDB43][\\uDC00-\\uDFFF]';

/** Every removable character (global); an emoji's ZWJ or VS16 is among them, see `keepsInvisible`. */
export const invisibleUnits = new RegExp(`[${bmp}]|${astral}`, 'g');
/**
 * A cheap first scan: a removable BMP character or any lead surrogate. V8 scans one class with a
 * single surrogate range about five times faster than one that lists the three leads it needs.
 */
export const invisibleUnit = new RegExp(`[${bmp}\\uD800-\\uDBFF]`);

const zwj = '\u200D';
const vs16 = '\uFE0F';
const pictographic = /^\p{Extended_Pictographic}/u;
const emoji = /^\p{Emoji}/u;
const skinTone = /^[\u{1F3FB}-\u{1F3FF}]$/u;

// The only emoji that use tag characters: the RGI subdivision flags of England, Scotland and Wales
// (black flag, tag letters, cancel tag). Any other run of tags is hidden ASCII and goes.
const tagFlags = ['gbeng', 'gbsct', 'gbwls'].map(
  (code) =>
    `\u{1F3F4}${[...code].map((letter) => String.fromCodePoint(0xe0000 + letter.charCodeAt(0))).join('')}\u{E007F}`,
);

/** Whether the tag character at `index` belongs to one of the three subdivision flags. */
function inTagFlag(text: string, index: number): boolean {
  for (const flag of tagFlags) {
    // The flag's tag characters are surrogate pairs at offsets 2, 4, … 12 of its 14 units.
    for (let offset = 2; offset < flag.length; offset += 2) {
      if (text.startsWith(flag, index - offset)) return true;
    }
  }
  return false;
}

/** The code point that ends just before `index`, or '' at the start. */
function before(text: string, index: number): string {
  if (index <= 0) return '';
  const low = text.charCodeAt(index - 1);
  const high = index >= 2 ? text.charCodeAt(index - 2) : 0;
  // A pair only when a lead surrogate precedes the trail: a lone trail is a code point of its own.
  const pair = low >= 0xdc00 && low <= 0xdfff && high >= 0xd800 && high <= 0xdbff;
  return text.slice(pair ? index - 2 : index - 1, index);
}

/**
 * Whether the ZWJ, VS16 or tag character at `index` is part of a legitimate emoji sequence and stays:
 * a single VS16 right after an emoji (💙️, 1️⃣), a ZWJ joining two pictographs (👩‍💻, ❤️‍🔥), or the tags
 * of the England, Scotland and Wales flags. Any other copy —
 * a second selector, a joiner after a letter — is what "emoji smuggling" hides bits in, and goes.
 */
export function keepsInvisible(text: string, index: number, char: string): boolean {
  if (char.charCodeAt(0) === 0xdb40) return inTagFlag(text, index);
  if (char === vs16) return emoji.test(before(text, index));
  if (char !== zwj || !pictographic.test(text.slice(index + 1, index + 3))) return false;
  let previous = before(text, index);
  let at = index - previous.length;
  if (previous === vs16 || skinTone.test(previous)) {
    previous = before(text, at);
    at -= previous.length;
  }
  return pictographic.test(previous);
}

/** The first removable character of `text` that is not kept, with its UTF-16 index. */
export function findInvisible(text: string): { index: number; codePoint: number } | undefined {
  invisibleUnits.lastIndex = 0;
  for (let match = invisibleUnits.exec(text); match !== null; match = invisibleUnits.exec(text)) {
    if (!keepsInvisible(text, match.index, match[0])) {
      return { index: match.index, codePoint: match[0].codePointAt(0) ?? 0 };
    }
  }
  return undefined;
}

/** `text` without its removable characters, and how many went. */
export function removeInvisible(text: string): { text: string; removed: number } {
  let removed = 0;
  const kept = text.replace(invisibleUnits, (char: string, index: number, whole: string) => {
    if (keepsInvisible(whole, index, char)) return char;
    removed++;
    return '';
  });
  return { text: kept, removed };
}
