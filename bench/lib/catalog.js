// The bench's catalog: one OpenAI-kind provider pointed at the fake upstream, served the same way to the
// deploy bundle (bench/servers/valve.js) and to `npm start` (bench/servers/npm-start.js).

/** @param {string} upstream the fake upstream's base URL */
export function benchCatalog(upstream) {
  return {
    providers: [{ id: 'bench', kind: 'openai', baseUrl: `${upstream}/v1`, apiKeyEnv: 'OPENAI_API_KEY' }],
    models: [
      {
        provider: 'bench',
        model: 'gpt-bench',
        regions: ['eu'],
        priceUsdPerMTok: { input: 1, output: 2 },
        quality: 90,
        latency: { ttftMsP50: 50, ttftMsP90: 100, outputTokensPerSec: 5000 },
        contextTokens: 32_000,
        maxOutputTokens: 4096,
        capabilities: { tools: true, json: 'native', reasoning: false, base64Data: false },
        maxPrivacy: 'confidential',
      },
    ],
  };
}
