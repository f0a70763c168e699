/**
 * Datamark mode's marker for this request: a private-use character (U+E000–U+F8FF) drawn from the
 * nonce, so it is as unpredictable as the nonce and the same nonce always gives the same character.
 */
export function datamarkChar(nonce: string): string {
  return String.fromCharCode(0xe000 + (Number.parseInt(nonce.slice(0, 8), 16) % 0x1900));
}
