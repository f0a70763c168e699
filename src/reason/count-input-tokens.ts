import type { ReasonRequest } from '../contracts/reason-request';
import { randomHex } from '../encoding/random-token';
import { measureMedia } from '../media/measure-media';
import { readMedia } from '../media/read-media';
import { drawNonce, promptInputs } from '../prompt/draw-nonce';
import { renderPrompt } from '../prompt/render-prompt';
import { deriveNeeds } from './derive-needs';

/**
 * The input tokens the planner counts for a request: its prompt rendered as a call would render it
 * (tags mode, system layout), the tools and the output schema, and its media measured from their
 * bytes. The count a door's token-counting endpoint answers; no model is called.
 */
export async function countInputTokens(request: ReasonRequest, untrustedTurns: boolean): Promise<number> {
  const inputs = promptInputs(request);
  const prompt = renderPrompt(request, {
    nonce: drawNonce(randomHex, inputs),
    canary: drawNonce(randomHex, inputs, 8),
    untrustedTurns,
  });
  return deriveNeeds(request, prompt.messages, await measureMedia(readMedia(request))).inputTokens;
}
