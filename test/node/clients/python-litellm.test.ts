import { afterAll, beforeAll, describe, it } from 'vitest';
import { defaultCatalog } from '../../../src/policy/default-catalog';
import { simModel } from '../../helpers/catalog-fixtures';
import { type CheckResult, expectPassed, runCheckScript, venvPresent } from '../helpers/python-clients';
import { type RunningValve, startValve } from '../helpers/start-valve';

// litellm's `completion` against a local Valve (test/clients/litellm_checks.py), from the clients'
// venv (helpers/python-clients): text, streaming, the documented tool loop, JSON and structured
// output, and the errors litellm maps to its exception classes.

let valve: RunningValve;
let results: CheckResult[] = [];

beforeAll(async () => {
  if (!venvPresent) return;
  valve = await startValve({
    catalog: {
      providers: defaultCatalog.providers,
      models: [
        ...defaultCatalog.models,
        // Its stream is cut after two chunks, once content has reached the caller.
        simModel('cut', { simulate: { latencyMs: 1, failAfterChunks: 2 } }),
      ],
    },
  });
  results = runCheckScript('litellm_checks.py', [`${valve.url}/openai/v1`, valve.key]);
}, 150_000);

afterAll(async () => {
  await valve?.stop();
});

describe.skipIf(!venvPresent)('litellm (1.110.2)', () => {
  it.each([
    'completion answers in text',
    'the id is chatcmpl-<receiptId>',
    'usage is counted',
    'system message and an alias model',
    'sampling parameters are accepted',
    'max_tokens truncates',
    'an assistant message read back is sent again',
    'streaming yields the text in chunks',
    'streaming with include_usage reports usage',
    'stream_chunk_builder rebuilds the completion',
    'tools: a call comes back',
    'tool loop: the Message object appended back',
    'tool loop: message.model_dump() appended back',
    'tool loop: message.json() appended back',
    'tool loop with parallel_tool_calls=False',
    'tool_choice required',
    'tool_choice naming a function',
    'streaming a tool call',
    'JSON mode: response_format json_object',
    'structured output: response_format a pydantic model',
    'structured output: a nested pydantic model ($defs)',
    'structured output: response_format json_schema',
    'structured output streamed',
    'acompletion (async)',
    'valve options ride in extra_body',
    'a bad key raises AuthenticationError',
    'an unknown model raises NotFoundError',
    'a refused parameter raises BadRequestError naming it',
    'a prompt over the context window raises ContextWindowExceededError',
    'a stream cut after its first chunks raises',
  ])('%s', (name) => expectPassed(results, name));
});
