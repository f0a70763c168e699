import { z } from 'zod';
import type { Capability } from '../../contracts/reason-request';
import { invalidParam } from '../invalid-param';
import { readPart } from '../read-part';
import { cacheControlSchema } from './messages-request';

// A Messages API `tools` list as Reason capabilities. Only client tools map: the client runs them,
// and Valve hands the model's calls back. Anthropic's server tools (web search, code execution, a
// text editor or a computer Anthropic defines) run inside Anthropic's API, which Valve is not.

const customTool = z.strictObject({
  type: z.literal('custom').optional(),
  name: z.string().min(1),
  description: z.string().optional(),
  input_schema: z.looseObject({ type: z.literal('object') }),
  cache_control: cacheControlSchema.nullish(),
  strict: z.boolean().optional(),
  defer_loading: z.boolean().optional(),
  eager_input_streaming: z.boolean().nullish(),
  allowed_callers: z.array(z.string()).optional(),
  input_examples: z.array(z.unknown()).optional(),
});

export function toolsOf(tools: readonly { type?: string }[] | undefined): Capability[] {
  return (tools ?? []).map((tool, i) => {
    if (tool.type !== undefined && tool.type !== 'custom')
      throw invalidParam(
        ['tools', i, 'type'],
        `'${tool.type}' is a server tool Anthropic's API runs itself, and Valve runs none: declare a client tool (name, description, input_schema) and run it on the client`,
      );
    const read = readPart(customTool, tool, ['tools', i]);
    return {
      name: read.name,
      ...(read.description !== undefined && { description: read.description }),
      inputSchema: read.input_schema,
    };
  });
}
