import type { ReasonRequest } from '../contracts/reason-request';
import type { ToolCall } from '../contracts/reason-response';
import { maxJsonDepth, parseJson } from '../encoding/json-depth';
import { checkAgainstSchema, describeIssues } from './check-json';

/** A call the model made that Valve will not hand over as runnable: an `invalid_tool_call`. */
export interface InvalidToolCall {
  type: 'invalid_tool_call';
  id: string;
  name?: string;
  raw_args: string;
  error: string;
  /** Why: `tool.unknown` (not in the request's tools), `tool.invalid_json`, `tool.invalid_arguments`. */
  code: 'tool.unknown' | 'tool.invalid_json' | 'tool.invalid_arguments';
}

export type ToolCallCheck = { ok: true; call: ToolCall } | { ok: false; invalid: InvalidToolCall };

const reviewDecisions: ['approve', 'edit', 'reject', 'respond'] = ['approve', 'edit', 'reject', 'respond'];

/**
 * Checks one tool call against the request's capability cards: the tool must be listed, its arguments
 * a JSON object valid against its `inputSchema`. A valid call is `tainted` when untrusted context was
 * present; a tainted call to a tool that is `destructive` or not `readOnly` carries an
 * ApprovalRequest so the caller can put a person in the loop before running it.
 */
export function checkToolCall(
  request: ReasonRequest,
  call: { id: string; name?: string; args?: Record<string, unknown>; rawArgs: string },
  tainted: boolean,
): ToolCallCheck {
  const invalid = (code: InvalidToolCall['code'], error: string): ToolCallCheck => ({
    ok: false,
    invalid: { type: 'invalid_tool_call', id: call.id, name: call.name, raw_args: call.rawArgs, error, code },
  });
  const tool = request.tools?.find((t) => t.name === call.name);
  if (!tool || !call.name)
    return invalid('tool.unknown', `The tool ${call.name ?? '(unnamed)'} was not offered.`);
  let args = call.args;
  if (!args) {
    const parsed = parseJson(call.rawArgs === '' ? '{}' : call.rawArgs);
    if (!parsed.ok)
      return invalid(
        'tool.invalid_json',
        parsed.problem === 'too_deep'
          ? `The arguments nest deeper than ${maxJsonDepth} levels.`
          : 'The arguments are not valid JSON.',
      );
    const value = parsed.value;
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      return invalid('tool.invalid_json', 'The arguments are not a JSON object.');
    args = value as Record<string, unknown>;
  }
  const check = checkAgainstSchema(args, tool.inputSchema as Record<string, unknown>);
  if (!check.ok)
    return invalid(
      'tool.invalid_arguments',
      `The arguments do not match inputSchema: ${describeIssues(check.issues, '; ')}`,
    );
  const result: ToolCall = { id: call.id, name: call.name, arguments: args, tainted };
  const annotations = tool.annotations ?? {};
  if (tainted && (annotations.destructive === true || annotations.readOnly !== true)) {
    result.approval = {
      call_id: call.id,
      tool: call.name,
      args,
      description:
        `${call.name} ${annotations.destructive ? 'is destructive' : 'is not read-only'} and was called while untrusted context was present; ` +
        'review the arguments before running it.',
      allowed: [...reviewDecisions],
    };
  }
  return { ok: true, call: result };
}
