// The bench's servers, each its own process, started together: the fake upstream, Valve's deploy
// bundle (bench/servers/valve.js), the peers Portkey (bench/lib/peer.js) and LiteLLM
// (bench/lib/litellm.js), the runtime's floor (bench/servers/floor.js) and `npm start`
// (bench/servers/npm-start.js).
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { startNpmStart } from '../servers/npm-start.js';
import { benchCatalog } from './catalog.js';
import { installLitellm, litellmFeaturesOff, litellmPackage, startLitellm } from './litellm.js';
import { installPeer, startPeer } from './peer.js';
import { descendantsNamed, startServer } from './processes.js';

/** The `/v1/reason` body every load of the bench sends (a ticket to summarize), with `extra` members. */
export const reasonBody = (/** @type {Record<string, unknown>} */ extra = {}) =>
  JSON.stringify({
    task: 'summarize',
    instructions: 'Summarize the ticket in one sentence.',
    context: [
      { label: 'ticket', trust: 'untrusted', privacy: 'internal', content: 'The printer is on fire.' },
    ],
    modelPolicy: { maxLatencyMs: 10_000 },
    ...extra,
  });

/** The fake upstream alone, for the tools that serve bundles of their own on it. */
export function startUpstream(/** @type {string} */ root) {
  return startServer(process.execPath, [join(root, 'bench/servers/upstream.js')], { timeoutMs: 10_000 });
}

/**
 * One deploy bundle (a `wrangler deploy --dry-run` outdir) in a workerd of its own on `upstreamUrl`:
 * the server, its workerd's pids, and its `/v1/reason` target under the plain key or the capped one.
 * @param {string} root @param {string} dir @param {string} upstreamUrl @param {{ capped?: boolean }} [o]
 */
export async function startBundle(root, dir, upstreamUrl, o = {}) {
  const server = await startServer(
    process.execPath,
    [join(root, 'bench/servers/valve.js'), `--bundle=${dir}`, `--upstream=${upstreamUrl}`],
    { cwd: root, timeoutMs: 90_000 },
  );
  const key = String(o.capped ? server.info.cappedKey : server.info.key);
  /** @type {import('./load.js').Target} */
  const target = {
    url: `${String(server.info.url)}/v1/reason`,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: reasonBody(),
  };
  return { server, workerd: descendantsNamed(Number(server.child.pid), 'workerd'), target };
}

/** The production bundle, exactly what `wrangler deploy` uploads. */
export function buildBundle(/** @type {string} */ root, /** @type {string} */ outdir) {
  const build = spawnSync(
    join(root, 'node_modules', '.bin', 'wrangler'),
    ['deploy', '--dry-run', '--outdir', outdir],
    {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, CI: '1' },
      timeout: 180_000,
    },
  );
  if (build.status !== 0) throw new Error(`wrangler deploy --dry-run failed: ${build.stderr.slice(-2000)}`);
}

/**
 * @param {{
 *   root: string, bundle: string, upstreamLatencyMs: number, peer: boolean, peerVersion: string,
 *   litellm: boolean, litellmVersion: string, litellmWorkers: number, floor: boolean,
 *   npmStart: boolean, inspectorPort: string, state: string,
 *   cleanups: Array<() => Promise<void>>, say: (message: string) => void,
 * }} o
 */
export async function startTargets(o) {
  /** @type {{ status: string, version: string, installMs?: number, reason?: string, workaround?: string }} */
  const peerInfo = { status: 'skipped', version: o.peerVersion };
  const peerStart = (async () => {
    if (!o.peer) {
      peerInfo.reason = '--no-peer';
      return undefined;
    }
    try {
      const install = installPeer(o.peerVersion);
      peerInfo.installMs = install.installMs;
      const peer = await startPeer(install, join(o.root, 'bench/servers/peer-preload.js'));
      peerInfo.status = 'ran';
      peerInfo.workaround =
        'fetch responses re-wrapped with mutable headers (Portkey-AI/gateway #1389, #1550), 127.0.0.1 only';
      return peer;
    } catch (error) {
      peerInfo.status = 'unavailable';
      peerInfo.reason = error instanceof Error ? error.message.slice(0, 2000) : String(error);
      return undefined;
    }
  })();

  const upstream = await startServer(
    process.execPath,
    [join(o.root, 'bench/servers/upstream.js'), `--latency-ms=${o.upstreamLatencyMs}`],
    { timeoutMs: 10_000 },
  );
  o.cleanups.push(upstream.stop);
  const upstreamUrl = String(upstream.info.url);

  // LiteLLM's install (pip, a minute the first time) blocks; it runs while Portkey's npm install does not.
  /** @type {{ package: string, status: string, version: string, workers: number, featuresOff: string[], python?: string, installMs?: number, reason?: string }} */
  const litellmInfo = {
    package: litellmPackage,
    status: 'skipped',
    version: o.litellmVersion,
    workers: o.litellmWorkers,
    featuresOff: litellmFeaturesOff,
  };
  const litellmStart = (async () => {
    if (!o.litellm) {
      litellmInfo.reason = '--no-litellm';
      return undefined;
    }
    try {
      const install = installLitellm(o.root, o.litellmVersion);
      litellmInfo.python = install.python;
      litellmInfo.installMs = install.installMs;
      const litellm = await startLitellm(install, { upstreamUrl, workers: o.litellmWorkers });
      litellmInfo.status = 'ran';
      return litellm;
    } catch (error) {
      litellmInfo.status = 'unavailable';
      litellmInfo.reason = error instanceof Error ? error.message.slice(0, 2000) : String(error);
      return undefined;
    }
  })();
  const floorStart = o.floor
    ? startServer(process.execPath, [join(o.root, 'bench/servers/floor.js'), `--upstream=${upstreamUrl}`], {
        cwd: o.root,
        timeoutMs: 60_000,
      })
    : Promise.resolve(undefined);
  floorStart.catch(() => {}); // awaited below

  const valveStart = startServer(
    process.execPath,
    [
      join(o.root, 'bench/servers/valve.js'),
      `--bundle=${o.bundle}`,
      `--upstream=${upstreamUrl}`,
      ...(o.inspectorPort ? [`--inspector-port=${o.inspectorPort}`] : []),
    ],
    {
      cwd: o.root,
      timeoutMs: 90_000,
      env: { ...process.env, ...(o.state === 'shm' && { TMPDIR: '/dev/shm' }) },
    },
  );
  valveStart.catch(() => {}); // awaited below; this only keeps an early failure from going unhandled
  /** @type {Awaited<ReturnType<typeof startNpmStart>> | undefined} */
  let npmStart;
  if (o.npmStart) {
    try {
      npmStart = await startNpmStart(o.root, benchCatalog(upstreamUrl));
      o.cleanups.push(npmStart.stop);
    } catch (error) {
      o.say(`NPM START NOT MEASURED: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  const peer = await peerStart;
  if (peer) o.cleanups.push(peer.stop);
  const litellm = await litellmStart;
  if (litellm) o.cleanups.push(litellm.stop);
  const floor = await floorStart;
  if (floor) o.cleanups.push(floor.stop);
  const valve = await valveStart;
  o.cleanups.push(valve.stop);
  if (!peer) o.say(`PORTKEY NOT MEASURED: ${peerInfo.reason}`);
  if (!litellm) o.say(`LITELLM NOT MEASURED: ${litellmInfo.reason}`);
  o.say(
    `servers up: upstream ${upstreamUrl}, Valve ${valve.info.url}${floor ? `, floor ${floor.info.url}` : ''}${npmStart ? `, npm start ${npmStart.url}` : ''}${peer ? `, Portkey ${peer.url}` : ''}${litellm ? `, LiteLLM ${litellm.url} (${o.litellmWorkers} worker${o.litellmWorkers === 1 ? '' : 's'})` : ''}`,
  );
  return { upstream, upstreamUrl, valve, peer, litellm, floor, npmStart, peerInfo, litellmInfo };
}
