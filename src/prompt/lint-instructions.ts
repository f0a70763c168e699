import { ApiError } from '../errors';
import { chatTemplateTokenPattern } from './chat-template-tokens';
import { findInvisible } from './invisible-characters';

// Instructions are trusted and go into the system channel unescaped, so they must not carry anything
// that could open a region, switch roles in a chat template, or hide text from a human reviewer.
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
const controlCharacter = /[\x00-\x08\x0B\x0C\x0E-\x1F\x7F-\x9F]/;
const markerPrefix = /<\/?data-/i;

/**
 * The first reason the instructions cannot go into the system channel as they are, naming the index
 * but never echoing the text; undefined when there is none. Pure.
 */
export function instructionsProblem(text: string): string | undefined {
  const control = controlCharacter.exec(text);
  if (control) {
    const code = control[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0');
    return `instructions contain a control character (U+${code}) at index ${control.index}`;
  }
  const invisible = findInvisible(text);
  if (invisible) {
    const code = invisible.codePoint.toString(16).toUpperCase().padStart(4, '0');
    return `instructions contain an invisible or bidi control character (U+${code}) at index ${invisible.index}`;
  }
  chatTemplateTokenPattern.lastIndex = 0;
  const token = chatTemplateTokenPattern.exec(text);
  if (token) return `instructions contain a chat-template token at index ${token.index}`;
  const marker = markerPrefix.exec(text);
  if (marker) return `instructions contain Valve's data-region marker prefix at index ${marker.index}`;
  return undefined;
}

/**
 * Rejects instructions with control characters (other than tab, newline, carriage return), invisible or
 * bidi characters, chat-template tokens, or the region marker prefix: 400 `request.invalid`, naming the
 * reason and the index but never echoing the text.
 */
export function lintInstructions(instructions: string): void {
  const reason = instructionsProblem(instructions);
  if (reason === undefined) return;
  throw new ApiError('request.invalid', `The request is invalid: ${reason}.`, {
    details: { issues: [{ path: '/instructions', code: 'instruction_lint', message: reason }] },
  });
}
