import claudeToolUse from '../fixtures/providers/anthropic/thinking-tool-use.json';
import geminiToolCall from '../fixtures/providers/gemini/tool-call.json';

// The upstream answers of the three-turn tool loops with thinking (Claude's extended thinking, Gemini
// 3's thought signatures): the recorded first step, and a second step made from it with a call and a
// signature of its own, so a test can tell which signature went back where.

type Body = Record<string, unknown>;

export { claudeToolUse, geminiToolCall };

export const claudeThinking = claudeToolUse.content[0] as { thinking: string; signature: string };
export const claudeSecondSignature = 'EqSecondStepSignatureOfClaude==';
export const claudeSecond: Body & { content: Body[] } = {
  ...claudeToolUse,
  id: 'msg_02',
  content: [
    { ...claudeToolUse.content[0], signature: claudeSecondSignature },
    { ...claudeToolUse.content[1], id: 'toolu_02second' },
  ],
};

export const geminiSignature = geminiToolCall.candidates[0]?.content.parts[0]?.thoughtSignature as string;
export const geminiSecondSignature = 'CsSecondStepSignatureOfGemini==';
const [candidate] = geminiToolCall.candidates;
export const geminiSecond: Body = {
  ...geminiToolCall,
  candidates: [
    {
      ...candidate,
      content: {
        role: 'model',
        parts: [
          {
            functionCall: { id: 'fc_second', name: 'weather', args: { location: 'Paris' } },
            thoughtSignature: geminiSecondSignature,
          },
        ],
      },
    },
  ],
};

/** How the two models think, as their catalog entries say. */
export const claudeReasoning = {
  control: 'budget' as const,
  minBudgetTokens: 1024,
  canDisable: true,
  defaultOn: false,
  billedAsOutput: true as const,
};
export const gemini3Reasoning = {
  control: 'level' as const,
  levels: ['low' as const, 'high' as const],
  canDisable: false,
  defaultOn: true,
  billedAsOutput: true as const,
};

/** A catalog model on a fake upstream that thinks as `reasoning` says. */
export function thinkingModel(provider: string, model: string, reasoning: Body) {
  return {
    provider,
    model,
    regions: ['lab'],
    priceUsdPerMTok: { input: 1, output: 4 },
    quality: 80,
    latency: { ttftMsP50: 40, ttftMsP90: 80, outputTokensPerSec: 400 },
    contextTokens: 200_000,
    maxOutputTokens: 32_000,
    capabilities: { tools: true, json: 'native', reasoning: true, base64Data: false },
    reasoning,
    maxPrivacy: 'confidential',
  };
}
