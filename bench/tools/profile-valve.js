#!/usr/bin/env node
// A CPU profile of Valve's worker under load, through workerd's inspector (Chrome DevTools Protocol).
// Start Valve with an inspector first, e.g. node bench/servers/valve.js --bundle=… --upstream=…
// --inspector-port=9239, then: node bench/tools/profile-valve.js <valve JSON line> [seconds] [out]
// Writes a .cpuprofile (open it in Chrome DevTools) and prints the functions with most self time.
import { writeFileSync } from 'node:fs';
import autocannon from 'autocannon';
import WebSocket from 'ws';

const { url, key } = JSON.parse(process.argv[2] ?? '{}');
const seconds = Number(process.argv[3] ?? 5);
const out = process.argv[4] ?? 'valve.cpuprofile';
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

/** @type {Map<string, number>} */
const self = new Map();
const byId = new Map(profile.nodes.map((/** @type {{ id: number }} */ n) => [n.id, n]));
const counts = new Map();
for (const sample of profile.samples) counts.set(sample, (counts.get(sample) ?? 0) + 1);
let total = 0;
for (const [nodeId, count] of counts) {
  const node = byId.get(nodeId);
  const frame = node.callFrame;
  const name = `${frame.functionName || '(anonymous)'} ${frame.url.split('/').pop()}:${frame.lineNumber}`;
  self.set(name, (self.get(name) ?? 0) + count);
  total += count;
}
console.log(`${result.requests.average} req/s over ${seconds}s; ${total} samples; wrote ${out}`);
for (const [name, count] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 25)) {
  console.log(`${((count / total) * 100).toFixed(1).padStart(5)}%  ${name}`);
}
