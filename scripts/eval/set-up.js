// Where the eval's arms are sent: a local llama.cpp model started here, any OpenAI-compatible endpoint
// (each with a Valve of its own started in front of it), or a running Valve and model from the environment.
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { directArms } from './arms.js';
import {
  endpointCatalog,
  localModels,
  prepareModel,
  prepareServer,
  startModelServer,
  startValve,
} from './local-model.js';
import { startRecordProxy } from './record-proxy.js';

/** The secret a hosted endpoint's key is handed to Valve under (catalog `apiKeyEnv`). */
const keySecret = 'PROVIDER_EVAL_API_KEY';

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** The first model an endpoint lists, for when none is named. */
async function firstModel(endpoint, headers) {
  const res = await fetch(`${endpoint}/models`, { headers });
  const json = await res.json().catch(() => undefined);
  const id = json?.data?.[0]?.id;
  if (!res.ok || typeof id !== 'string') throw new Error(`${endpoint}/models names no model; pass --model`);
  return id;
}

/** A Valve on a free port in front of `endpoint` (…/v1), through the recording proxy. */
async function valveInFront(endpoint, { model, key, rendering, source }, stops) {
  const proxy = await startRecordProxy(endpoint);
  stops.push(proxy.close);
  const catalog = endpointCatalog({
    baseUrl: proxy.url,
    model,
    rendering,
    source,
    ...(key ? { apiKeyEnv: keySecret } : {}),
  });
  const work = join(tmpdir(), `valve-eval-${process.pid}`);
  console.error('eval: starting Valve (npm start) with the model as its catalog');
  const valve = await startValve(work, await freePort(), catalog, key ? { [keySecret]: key } : {});
  stops.push(valve.stop);
  return { valveUrl: valve.url, valveKey: valve.key, pinned: `eval/${model}`, proxy };
}

/**
 * The target of the arms. `options`: size (a local model), endpoint (…/v1), model, key (the value),
 * untuned (no per-model rendering in the catalog), threads, cacheDir, arms. `stops` collects teardowns.
 */
export async function setUpTarget(options, stops) {
  const { size, arms } = options;
  let endpoint = options.endpoint?.replace(/\/$/, '');
  let label;
  let rendering = {};
  if (size !== undefined) {
    const python = prepareServer(options.cacheDir);
    const local = await prepareModel(options.cacheDir, size);
    console.error(`eval: starting llama-server with ${local.name}`);
    const server = await startModelServer(python, local.path, await freePort(), options.threads);
    stops.push(server.stop);
    endpoint = `${server.url}/v1`;
    label = local.name;
    rendering = options.untuned ? {} : localModels[size].catalog;
  }
  if (endpoint === undefined) return fromEnvironment(arms);
  const modelHeaders = options.key ? { authorization: `Bearer ${options.key}` } : {};
  const model = size
    ? `qwen2.5-coder-${size}`
    : (options.model ?? (await firstModel(endpoint, modelHeaders)));
  const source = label ? `local llama.cpp, ${label}` : endpoint;
  const valve = await valveInFront(endpoint, { model, key: options.key, rendering, source }, stops);
  return {
    ...valve,
    modelUrl: endpoint,
    model: size ? 'local' : model,
    modelHeaders,
    label: label ?? `${model} at ${endpoint}`,
    catalogModel: model,
    rendering,
  };
}

function fromEnvironment(arms) {
  const target = {
    valveUrl: process.env.VALVE_URL ?? 'http://127.0.0.1:8787',
    valveKey: process.env.VALVE_KEY,
    modelUrl: process.env.MODEL_URL,
    model: process.env.MODEL,
    pinned: process.env.VALVE_MODEL,
    label: process.env.VALVE_MODEL ?? 'the running Valve',
  };
  if (arms.some((a) => !directArms.includes(a)) && !target.valveKey) {
    throw new Error(
      'set VALVE_KEY (scope "reason") and VALVE_URL of a running Valve, or use --local or --endpoint',
    );
  }
  if (arms.some((a) => directArms.includes(a)) && !(target.modelUrl && target.model)) {
    throw new Error('the naive arms call the model directly: set MODEL_URL (…/v1) and MODEL, or use --arms');
  }
  return target;
}
