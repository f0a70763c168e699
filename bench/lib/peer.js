// The first peer gateway: Portkey's open-source gateway (`@portkey-ai/gateway` on npm), installed at
// bench time into a temporary folder (kept between runs under the OS temp dir, never a project
// dependency) and run on Node with its own CLI, `build/start-server.js --port=N --headless`. Its
// figures keep the key `peer` in the results, as every earlier run's files have them; the second peer,
// LiteLLM's proxy, is bench/lib/litellm.js.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from './processes.js';

export const peerPackage = '@portkey-ai/gateway';

/** @returns {Promise<number>} a port free on 127.0.0.1 a moment ago */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Installs the peer (once per version) and returns the path of its server script.
 * @param {string} version
 * @returns {{ script: string, dir: string, installed: boolean, installMs: number }}
 */
export function installPeer(version) {
  const dir = join(tmpdir(), 'valve-bench-peer', version);
  const script = join(dir, 'node_modules', '@portkey-ai', 'gateway', 'build', 'start-server.js');
  if (existsSync(script)) return { script, dir, installed: false, installMs: 0 };
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ private: true, name: 'valve-bench-peer' }));
  const began = performance.now();
  const result = spawnSync(
    'npm',
    ['install', '--no-audit', '--no-fund', '--loglevel=error', `${peerPackage}@${version}`],
    { cwd: dir, encoding: 'utf8', timeout: 180_000 },
  );
  if (result.status !== 0 || !existsSync(script)) {
    throw new Error(
      `npm install ${peerPackage}@${version} failed (${result.status ?? result.signal ?? result.error?.message}): ${(result.stderr ?? '').slice(-1500)}`,
    );
  }
  return { script, dir, installed: true, installMs: Math.round(performance.now() - began) };
}

/**
 * @param {{ script: string, dir: string }} install
 * @param {string} preload absolute path of servers/peer-preload.js
 */
export async function startPeer(install, preload) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const server = await startServer(
    process.execPath,
    ['--import', preload, install.script, `--port=${port}`, '--headless'],
    {
      cwd: install.dir,
      env: { ...process.env, NODE_ENV: 'production' },
      timeoutMs: 90_000,
      probe: async () => (await fetch(`${url}/`)).ok,
    },
  );
  return { ...server, url };
}
