#!/usr/bin/env node
// A CPU profile of Valve's worker under load, through workerd's inspector (Chrome DevTools Protocol).
// Build the bundle unminified (so that frames name their source files), start Valve with an inspector,
// then profile:
//   npx wrangler deploy --dry-run --minify=false --outdir /tmp/valve-bundle
//   node bench/servers/upstream.js &                                   # prints {"url": …}
//   node bench/servers/valve.js --bundle=/tmp/valve-bundle --upstream=<url> --inspector-port=9239
//   node bench/tools/profile-valve.js '<valve JSON line>' [seconds] [out] [--bundle=/tmp/valve-bundle/index.js]
// Writes a .cpuprofile (open it in Chrome DevTools) and prints the functions with most self time; with
// --bundle, also the share of busy samples per source file, self and inclusive (the bundle's
// `// src/…` markers map each frame's line to the module it came from).
import { readFileSync, writeFileSync } from 'node:fs';
import autocannon from 'autocannon';
import WebSocket from 'ws';

const positional = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const bundle = process.argv.find((a) => a.startsWith('--bundle='))?.slice('--bundle='.length);
const { url, key } = JSON.parse(positional[0] ?? '{}');
const seconds = Number(positional[1] ?? 5);
const out = positional[2] ?? 'valve.cpuprofile';
const inspector = process.env.INSPECTOR ?? 'ws://127.0.0.1:9239/core:user:valve';

const ws = new WebSocket(inspector);
await new Promise((resolve, reject) => {
  ws.once('open', resolve);
  ws.once('error', reject);
});
let id = 0;
/** @type {Map<number, (result: unknown) => void>} */
const pending = new Map();
ws.on('message', (data) => {
  const message = JSON.parse(String(data));
  if (message.id !== undefined) pending.get(message.id)?.(message.result);
});
/** @param {string} method @param {Record<string, unknown>} [params] @returns {Promise<any>} */
const send = (method, params = {}) =>
  new Promise((resolve) => {
    const n = ++id;
    pending.set(n, resolve);
    ws.send(JSON.stringify({ id: n, method, params }));
  });

await send('Profiler.enable');
await send('Profiler.setSamplingInterval', { interval: 200 });
await send('Profiler.start');
const result = await autocannon({
  url: `${url}/v1/reason`,
  method: 'POST',
  connections: 16,
  duration: seconds,
  headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
  body: JSON.stringify({
    task: 'summarize',
    instructions: 'Summarize the ticket in one sentence.',
    context: [{ trust: 'untrusted', privacy: 'internal', content: 'The printer is on fire.' }],
  }),
});
const { profile } = await send('Profiler.stop');
ws.close();
writeFileSync(out, JSON.stringify(profile));

/** @typedef {{ id: number, callFrame: { functionName: string, url: string, lineNumber: number }, children?: number[] }} ProfileNode */
/** @type {Map<number, ProfileNode>} */
const byId = new Map(profile.nodes.map((/** @type {ProfileNode} */ n) => [n.id, n]));
/** @type {Map<number, number>} */
const parent = new Map();
for (const node of byId.values()) for (const child of node.children ?? []) parent.set(child, node.id);
/** @type {Map<number, number>} */
const counts = new Map();
for (const sample of profile.samples) counts.set(sample, (counts.get(sample) ?? 0) + 1);

// Source-file markers of an unminified esbuild bundle: `// src/log/receipt-log.ts` before each module.
/** @type {[number, string][]} */
const marks = [];
if (bundle) {
  readFileSync(bundle, 'utf8')
    .split('\n')
    .forEach((line, i) => {
      const match = /^\/\/ ((?:src|node_modules)\/\S+)$/.exec(line);
      if (match?.[1]) marks.push([i, match[1].replace(/^node_modules\//, 'npm:')]);
    });
}
/** @param {number} line */
const fileAt = (line) => {
  let found = '(bundle prelude)';
  for (const [start, file] of marks) {
    if (start > line) break;
    found = file;
  }
  return found;
};
/** @param {ProfileNode} node */
const fileOf = (node) =>
  marks.length > 0 && node.callFrame.url.endsWith('index.js')
    ? fileAt(node.callFrame.lineNumber)
    : `(${node.callFrame.functionName || 'native'})`;

/** @type {Map<string, number>} */
const self = new Map();
/** @type {Map<string, number>} */
const fileSelf = new Map();
/** @type {Map<string, number>} */
const fileInclusive = new Map();
let busy = 0;
for (const [nodeId, count] of counts) {
  const node = /** @type {ProfileNode} */ (byId.get(nodeId));
  const frame = node.callFrame;
  if (frame.functionName === '(idle)') continue;
  busy += count;
  const name = `${frame.functionName || '(anonymous)'} ${frame.url.split('/').pop()}:${frame.lineNumber}`;
  self.set(name, (self.get(name) ?? 0) + count);
  fileSelf.set(fileOf(node), (fileSelf.get(fileOf(node)) ?? 0) + count);
  const seen = new Set();
  for (let at = /** @type {number | undefined} */ (nodeId); at !== undefined; at = parent.get(at)) {
    const file = fileOf(/** @type {ProfileNode} */ (byId.get(at)));
    if (seen.has(file)) continue;
    seen.add(file);
    fileInclusive.set(file, (fileInclusive.get(file) ?? 0) + count);
  }
}
/** @param {Map<string, number>} table @param {number} n */
const top = (table, n) =>
  [...table]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([name, count]) => `${((count / busy) * 100).toFixed(1).padStart(5)}%  ${name}`);
console.log(`${result.requests.average} req/s over ${seconds}s; ${busy} busy samples; wrote ${out}`);
console.log(top(self, 25).join('\n'));
if (marks.length > 0) {
  console.log('\nself, by source file:');
  console.log(top(fileSelf, 25).join('\n'));
  console.log('\ninclusive, by source file (the share of samples with the file on the stack):');
  console.log(top(fileInclusive, 30).join('\n'));
}
