// Chat-template control tokens that some serving stacks turn into real role switches when they appear
// in text: Llama/Mistral brackets, ChatML and Llama 3 pipes, Gemma turns, Alpaca-style headings.
// Plain "Human:"/"Assistant:" prefixes are left alone: they are ordinary prose far too often.
const sources = [
  String.raw`\[\/?(?:INST|SYS|SYSTEM_PROMPT|AVAILABLE_TOOLS|TOOL_CALLS|TOOL_RESULTS)\]`,
  String.raw`<<\/?SYS>>`,
  String.raw`<\|[A-Za-z_][A-Za-z0-9_]{0,31}\|>`,
  String.raw`<\/?(?:start_of_turn|end_of_turn)>`,
  String.raw`#{3}[ \t]*(?:Instruction|Response|System|Input|Human|Assistant|User)[ \t]*:`,
];

/** Matches any chat-template token (global, case-insensitive). Reset `lastIndex` or use `replace`. */
export const chatTemplateTokenPattern = new RegExp(sources.join('|'), 'gi');

const lookalikes: Record<string, string> = {
  '[': '\uFF3B',
  ']': '\uFF3D',
  '<': '\uFF1C',
  '>': '\uFF1E',
  '|': '\uFF5C',
  '#': '\uFF03',
};

/**
 * A token with its brackets, pipes and hashes swapped for their fullwidth look-alikes: still readable,
 * no longer the token. The result never matches the pattern again, so neutralizing is idempotent.
 */
export function neutralizeToken(token: string): string {
  return token.replace(/[[\]<>|#]/g, (char) => lookalikes[char] ?? char);
}
