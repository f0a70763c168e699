import { afterAll, beforeAll, describe, it } from 'vitest';
import { defaultCatalog } from '../../../src/policy/default-catalog';
import { simModel } from '../../helpers/catalog-fixtures';
import { type CheckResult, expectPassed, runCheckScript, venvPresent } from '../helpers/python-clients';
import { type RunningValve, startValve } from '../helpers/start-valve';

// The official `anthropic` Python SDK against a local Valve's Anthropic door, the built-in simulator
// catalog behind it (test/clients/anthropic_sdk_checks.py), from the clients' venv (helpers/python-clients).

let valve: RunningValve;
let results: CheckResult[] = [];

beforeAll(async () => {
  if (!venvPresent) return;
  valve = await startValve({
    catalog: {
      providers: defaultCatalog.providers,
      models: [
        ...defaultCatalog.models,
        // Always overloaded, and never the policy's choice for `auto` (the worst and dearest model).
        simModel('busy', {
          quality: 1,
          priceUsdPerMTok: { input: 100, output: 100 },
          simulate: { latencyMs: 1, failWith: 'overloaded' },
        }),
      ],
    },
  });
  results = runCheckScript('anthropic_sdk_checks.py', [`${valve.url}/anthropic`, valve.key]);
}, 150_000);

afterAll(async () => {
  await valve?.stop();
});

describe.skipIf(!venvPresent)('the anthropic Python SDK (2.17.0)', () => {
  it.each([
    'create answers text with a msg_ id and the receipt in valve',
    "stream with text_stream gives the final message's text",
    'stream events: text deltas with their snapshot, a tool_use assembled from input_json',
    'a tool loop of three turns ends in text',
    'count_tokens and models',
    'an image and a PDF are read by a model that reads them',
    'a bad key is an AuthenticationError, an unknown model a NotFoundError, a server tool a BadRequestError',
    "an overloaded model is an OverloadedError (529) after the SDK's own retry",
  ])('%s', (name) => expectPassed(results, name));
});
