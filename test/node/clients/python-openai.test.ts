import { afterAll, beforeAll, describe, it } from 'vitest';
import { defaultCatalog } from '../../../src/policy/default-catalog';
import { simModel } from '../../helpers/catalog-fixtures';
import { type CheckResult, expectPassed, runCheckScript, venvPresent } from '../helpers/python-clients';
import { type RunningValve, startValve } from '../helpers/start-valve';

// The official `openai` Python SDK against a local Valve (test/clients/openai_sdk_checks.py), from the
// clients' venv (helpers/python-clients).

let valve: RunningValve;
let results: CheckResult[] = [];

beforeAll(async () => {
  if (!venvPresent) return;
  valve = await startValve({
    catalog: {
      providers: defaultCatalog.providers,
      models: [
        ...defaultCatalog.models,
        // Fails the first three calls (one request's attempts), then answers: its circuit opens and half-opens.
        simModel('flaky', { simulate: { latencyMs: 1, failWith: 'server', failTimes: 3 } }),
        simModel('flaky-hold', { simulate: { latencyMs: 1, failWith: 'server' } }),
      ],
    },
    vars: { CIRCUIT_COOLDOWN_MS: '2000' },
  });
  results = runCheckScript('openai_sdk_checks.py', [`${valve.url}/openai/v1`, valve.key]);
}, 150_000);

afterAll(async () => {
  await valve?.stop();
});

describe.skipIf(!venvPresent)('the openai Python SDK (3.60.0)', () => {
  it.each([
    'model_dump round trip',
    'to_dict round trip',
    'models.retrieve with a slash',
    'max_tokens truncates',
    'a circuit-open 503 is what the SDK sees without retries',
    'a circuit-open 503 is retried until the probe answers',
    'valve/cost answers text with sim/fast',
    'an image_url data URL is read by a model that reads images',
    'a file part with a PDF is read by a model that reads PDFs',
    'input_audio is read by the model that reads audio',
    'responses.create with input_image and input_file',
    'an image URL without allowUrls is a BadRequestError naming the part',
  ])('%s', (name) => expectPassed(results, name));
});
