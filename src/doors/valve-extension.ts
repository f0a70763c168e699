import type { ReasonResponse, Warning } from '../contracts/reason-response';
import type { HeldBack } from './hold-back';

/**
 * A door's `valve` extension: the signed Reason response, exactly the shape `valve-verify disclose`
 * reads, with the door's own notes (knobs it did not apply) and one `<door>.tool_call_held` warning per
 * call held back, after the pipeline's warnings (warnings are not committed to).
 */
export function valveExtensionOf(
  door: 'openai' | 'anthropic',
  response: ReasonResponse,
  held: HeldBack,
  notes: readonly Warning[] = [],
): ReasonResponse {
  if (held.held.length === 0 && notes.length === 0) return response;
  const warnings = held.held.map((call) => ({
    code: `${door}.tool_call_held`,
    message: `Tool call ${call.id} (${call.name}) follows untrusted input and its tool is destructive: it was not handed to the client.`,
  }));
  return { ...response, warnings: [...response.warnings, ...notes, ...warnings] };
}
