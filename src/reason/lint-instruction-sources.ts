import type { ApiError } from '../errors';
import { instructionsProblem } from '../prompt/lint-instructions';

// A door joins its instructions from parts of its own body (OpenAI's system and developer messages,
// the Responses API's `instructions`): the pipeline lints each part, so the 400 names the part the
// caller wrote, in the door's terms. The joined `instructions` are linted again in prepare-reason.

/** One part of a door's instructions, and the door's 400 for a problem in it. */
export interface InstructionSource {
  text: string;
  invalid: (problem: string) => ApiError;
}

/** Throws the first part's own 400 when a part fails the instruction lint (prompt/lint-instructions). */
export function lintInstructionSources(sources: readonly InstructionSource[]): void {
  for (const source of sources) {
    const problem = instructionsProblem(source.text);
    if (problem !== undefined) throw source.invalid(problem);
  }
}
