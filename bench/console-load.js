#!/usr/bin/env node
// `npm run bench:console`: how long the operator's console (GET /console) takes to show each view, with
// 100 tenants and 1,000 keys. A measurement, not a test: it prints the figures and writes
// bench/results/<date>-console.md; nothing fails above any threshold.
//
//   1. Valve's production bundle (`wrangler deploy --dry-run`) in workerd (bench/servers/valve.js), on
//      the bench's fake upstream;
//   2. seeded through the admin API as an operator would: 100 tenants of 10 keys each, a monthly cap on
//      every other tenant, and `--requests` Reason calls (default 500) spread over the tenants;
//   3. Debian's headless Chromium (playwright-core), a fresh browser context per load, the admin token
//      in the tab's session storage as the console keeps it when asked to: from navigation to the
//      view's `valve-console:<view>` performance mark (set once its data is on screen), which covers
//      the HTML, the script and every admin call the view makes (with a kept token, the view's first
//      call is also the token's check).
//
// Options: --runs=N (loads per view, default 10), --requests=N, --out=PATH (default
// bench/results/<date>-console.md), --chromium=PATH (default /usr/bin/chromium).
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { buildBundle, reasonBody, startUpstream } from './lib/bench-servers.js';
import { describeMachine, loadNow } from './lib/machine.js';
import { startServer } from './lib/processes.js';
import { summarize } from './lib/stats.js';

const root = join(import.meta.dirname, '..');
/** @param {string} name @param {string} fallback */
const option = (name, fallback) =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const runs = Number(option('runs', '10'));
const requests = Number(option('requests', '500'));
const day = new Date().toISOString().slice(0, 10);
const out = resolve(root, option('out', `bench/results/${day}-console.md`));
const executablePath = option('chromium', '/usr/bin/chromium');
const TENANTS = 100;
const KEYS_PER_TENANT = 10;
const views = ['overview', 'tenants', 'models', 'log'];

const began = performance.now();
/** @param {string} message */
const say = (message) =>
  console.error(`[console-load ${((performance.now() - began) / 1000).toFixed(1)}s] ${message}`);

if (!existsSync(executablePath)) {
  console.error(`no browser at ${executablePath} (apt-get install chromium)`);
  process.exit(2);
}

/** Runs `task` over `items`, `width` at a time. @template T @param {T[]} items @param {number} width @param {(item: T) => Promise<void>} task */
async function pool(items, width, task) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await task(/** @type {T} */ (items[next++]));
  };
  await Promise.all(Array.from({ length: width }, worker));
}

const bundleDir = mkdtempSync(join(tmpdir(), 'valve-console-bundle-'));
/** @type {Array<() => Promise<void>>} */
const cleanups = [async () => rmSync(bundleDir, { recursive: true, force: true })];
try {
  say('building the deploy bundle');
  buildBundle(root, bundleDir);
  const upstream = await startUpstream(root);
  cleanups.push(upstream.stop);
  const valve = await startServer(
    process.execPath,
    [
      join(root, 'bench/servers/valve.js'),
      `--bundle=${bundleDir}`,
      `--upstream=${String(upstream.info.url)}`,
    ],
    { cwd: root, timeoutMs: 90_000 },
  );
  cleanups.push(valve.stop);
  const url = String(valve.info.url);
  const token = String(valve.info.adminToken);
  const admin = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };

  say(`seeding ${TENANTS} tenants of ${KEYS_PER_TENANT} keys each`);
  const tenants = Array.from({ length: TENANTS }, (_, i) => `tenant-${String(i + 1).padStart(3, '0')}`);
  /** @type {string[]} */
  const keys = [];
  await pool(
    tenants.flatMap((tenant) => Array.from({ length: KEYS_PER_TENANT }, () => tenant)),
    8,
    async (tenant) => {
      const res = await fetch(`${url}/v1/admin/keys`, {
        method: 'POST',
        headers: admin,
        body: JSON.stringify({ tenant, scopes: ['reason', 'receipts:read'] }),
      });
      if (res.status !== 201) throw new Error(`creating a key: ${res.status} ${await res.text()}`);
      keys.push(/** @type {{ key: string }} */ (await res.json()).key);
    },
  );
  await pool(
    tenants.filter((_, i) => i % 2 === 0),
    8,
    async (tenant) => {
      const res = await fetch(`${url}/v1/admin/tenants/${tenant}/budget`, {
        method: 'PUT',
        headers: admin,
        body: JSON.stringify({ monthlyCapUsd: 5 }),
      });
      if (res.status !== 200) throw new Error(`setting a cap: ${res.status} ${await res.text()}`);
    },
  );
  say(`sending ${requests} Reason calls`);
  await pool(
    Array.from({ length: requests }, (_, i) => keys[(i * 7) % keys.length]),
    8,
    async (key) => {
      const res = await fetch(`${url}/v1/reason`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: reasonBody(),
      });
      if (res.status !== 200) throw new Error(`reason: ${res.status} ${await res.text()}`);
    },
  );
  // Usage and receipt rows are written behind the answers.
  await new Promise((r) => setTimeout(r, 1500));
  const listed = await (await fetch(`${url}/v1/admin/tenants?limit=1000`, { headers: admin })).json();
  const keyCount = listed.tenants.reduce((sum, t) => sum + t.activeKeys, 0);
  say(`seeded: ${listed.tenants.length} tenants, ${keyCount} keys`);
  const html = await (await fetch(`${url}/console`)).text();

  const browser = await chromium.launch({ executablePath });
  cleanups.push(() => browser.close());
  /** @param {string} view */
  async function load(view) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    try {
      await context.addInitScript((t) => sessionStorage.setItem('valve-console:admin-token', t), token);
      const page = await context.newPage();
      await page.goto(`${url}/console#${view}`);
      await page.waitForFunction((v) => performance.getEntriesByName(`valve-console:${v}`).length > 0, view, {
        timeout: 30_000,
      });
      return await page.evaluate((v) => {
        const [nav] = /** @type {PerformanceNavigationTiming[]} */ (
          performance.getEntriesByType('navigation')
        );
        return {
          shown: performance.getEntriesByName(`valve-console:${v}`)[0]?.startTime ?? Number.NaN,
          html: nav?.responseEnd ?? Number.NaN,
          requests: performance.getEntriesByType('resource').length,
        };
      }, view);
    } finally {
      await context.close();
    }
  }
  /** @type {Record<string, { shown: ReturnType<typeof summarize>, html: ReturnType<typeof summarize>, requests: number, first: number }>} */
  const results = {};
  for (const view of views) {
    const first = await load(view); // a warm-up, reported apart: the isolate's first reads of D1
    const samples = [];
    for (let i = 0; i < runs; i++) samples.push(await load(view));
    results[view] = {
      first: Math.round(first.shown),
      shown: summarize(samples.map((s) => s.shown)),
      html: summarize(samples.map((s) => s.html)),
      requests: samples[0]?.requests ?? 0,
    };
    say(
      `${view}: median ${results[view].shown.p50.toFixed(0)} ms, p90 ${results[view].shown.p90.toFixed(0)} ms`,
    );
  }

  const machine = describeMachine();
  const ms = (/** @type {number} */ x) => `${Math.round(x)} ms`;
  const rows = views.map((view) => {
    const r = /** @type {(typeof results)[string]} */ (results[view]);
    return `| ${view} | ${ms(r.shown.p50)} | ${ms(r.shown.p90)} | ${ms(r.shown.max)} | ${ms(r.first)} | ${ms(r.html.p50)} | ${r.requests} |`;
  });
  const report = [
    `# The console's load time, ${day}`,
    '',
    `Command: \`npm run bench:console\` (\`node bench/console-load.js --runs=${runs} --requests=${requests}\`).`,
    '',
    `Valve's deploy bundle in workerd (bench/servers/valve.js) with ${listed.tenants.length} tenants, ${keyCount} keys (a cap on every other tenant) and ${requests} Reason calls of this month; the page (${Math.round(Buffer.byteLength(html) / 1024)} KiB, one file) loaded ${runs} times per view in a fresh context of headless Chromium, the admin token in the tab's session storage. A load runs from navigation to the view's \`valve-console:<view>\` mark, set once its data is on screen: the HTML, the script and every admin call of the view (the first of which also checks the kept token). "First" is the load before the ${runs} (the isolate's first reads).`,
    '',
    '| view | median | p90 | max | first | HTML received (median) | requests |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    ...rows,
    '',
    `Machine: ${machine.cpus} × ${machine.cpuModel}, ${machine.memoryGiB} GiB, Node ${machine.node}, ${machine.platform}; load average ${loadNow().join(' / ')} at the end (the cores are shared with other work).`,
    '',
  ].join('\n');
  writeFileSync(out, report);
  console.log(report);
  say(`wrote ${relative(root, out)}`);
} finally {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
}
