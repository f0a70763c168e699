import type { PromptCache } from '../../contracts/reason-request';
import type { Warning } from '../../contracts/reason-response';
import type { InstructionPart } from '../build-reason-request';
import { openaiParamOf, type ParamPath, pointerOf } from '../invalid-param';
import type { CountTokensRequest, MessagesRequest } from './messages-request';

// A body's `cache_control` breakpoints as the Reason request's `cache` (docs/anthropic-door.md, "Prompt
// caching"). Anthropic caches tools, then system, then messages, up to a marked block. Valve renders
// every request anew: after the caller's instructions come its trusted regions and policy text, which
// carry this request's nonce and canary, so only two marks still end bytes that repeat: the one on the
// last tool and the one on the last instruction part. Every other mark would only pay for cache
// writes: it is not sent, and a warning names it.

interface Mark {
  at: ParamPath;
  ttl?: string;
}

const paramOf = (at: ParamPath): string => openaiParamOf(pointerOf(at)) ?? '';

/** The `cache_control` a block or tool carries, when it carries one. */
function markOf(value: unknown, at: ParamPath): Mark | undefined {
  if (typeof value !== 'object' || value === null || !('cache_control' in value)) return undefined;
  const control = value.cache_control;
  if (typeof control !== 'object' || control === null) return undefined;
  const ttl = 'ttl' in control && typeof control.ttl === 'string' ? control.ttl : undefined;
  return { at: [...at, 'cache_control'], ...(ttl !== undefined && { ttl }) };
}

function dropped(marks: Mark[], why: string): Warning[] {
  if (marks.length === 0) return [];
  return [
    {
      code: 'anthropic.cache_dropped',
      message: `Valve sent no cache breakpoint for ${marks.map((mark) => paramOf(mark.at)).join(', ')}: ${why} (docs/anthropic-door.md#prompt-caching).`,
    },
  ];
}

/** The body's breakpoints as `cache`, and a warning for each kind of breakpoint Valve could not keep. */
export function cacheOf(
  body: MessagesRequest | CountTokensRequest,
  instructions: InstructionPart[],
): { cache?: PromptCache; notes: Warning[] } {
  const tools = body.tools ?? [];
  const toolMarks = tools.flatMap((tool, i) => markOf(tool, ['tools', i]) ?? []);
  const instructionMarks: Mark[] = [];
  const messageMarks: Mark[] = [];
  if (Array.isArray(body.system))
    body.system.forEach((block, i) => {
      const mark = markOf(block, ['system', i]);
      if (mark) instructionMarks.push(mark);
    });
  body.messages.forEach((message, i) => {
    if (typeof message.content === 'string') return;
    message.content.forEach((block, j) => {
      const mark = markOf(block, ['messages', i, 'content', j]);
      if (mark) (message.role === 'system' ? instructionMarks : messageMarks).push(mark);
    });
  });
  // Top-level `cache_control` asks Anthropic to place the breakpoint itself, on the last block, which
  // here is this request's own: Valve places it where bytes repeat instead.
  const automatic = body.cache_control !== undefined && body.cache_control !== null;
  const lastTool = paramOf(['tools', tools.length - 1, 'cache_control']);
  const lastPart = instructions.at(-1);
  // A system block's part is named by its text (`system[1].text`), a system message's by its block.
  const blockOf = (param: ParamPath) => (param.at(-1) === 'text' ? param.slice(0, -1) : param);
  const lastInstruction = lastPart && paramOf([...blockOf(lastPart.param), 'cache_control']);
  const keptTool = toolMarks.filter((mark) => paramOf(mark.at) === lastTool);
  const keptInstruction = instructionMarks.filter((mark) => paramOf(mark.at) === lastInstruction);
  const cache: PromptCache = {
    ...((keptTool.length > 0 || (automatic && tools.length > 0)) && { tools: true }),
    ...((keptInstruction.length > 0 || (automatic && instructions.length > 0)) && { instructions: true }),
  };
  const notes = [
    ...dropped(
      messageMarks,
      'the messages come after Valve’s policy text, which is new in every request, so no message is cached',
    ),
    ...dropped(
      [...instructionMarks, ...toolMarks].filter(
        (mark) => !keptTool.includes(mark) && !keptInstruction.includes(mark),
      ),
      'Valve marks only the end of the tools (the last tool) and the end of the instructions (the last system block)',
    ),
  ];
  // Valve sends the 5-minute cache, the one the catalog's cacheWrite prices: a longer ttl is named.
  const long = [...keptTool, ...keptInstruction].flatMap((mark) =>
    mark.ttl !== undefined && mark.ttl !== '5m' ? [paramOf(mark.at)] : [],
  );
  if (automatic && body.cache_control?.ttl !== undefined && body.cache_control.ttl !== '5m')
    long.push('cache_control');
  if (long.length > 0)
    notes.push({
      code: 'anthropic.param_ignored',
      message: `Valve sent its cache breakpoints with Anthropic's default 5-minute lifetime, not the ttl asked for at ${long.join(', ')}.`,
    });
  return { ...(Object.keys(cache).length > 0 && { cache }), notes };
}
