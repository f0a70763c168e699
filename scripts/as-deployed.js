// Miniflare options that serve the deploy bundle the way Cloudflare runs a deployed Worker, without
// the development-server isolates Miniflare puts around it by default. `npm start` (scripts/dev.js)
// and the bench's Valve (bench/servers/valve.js) both use them, so a local measurement is one of the
// deployed code's path.

/**
 * Requests come in on a socket of the Worker's own at `port` (0: any free one), as Cloudflare's edge
 * hands them to a deployed Worker, not through Miniflare's entry worker: another isolate that copies
 * each request and checks each answer for development pages, about 90 µs of CPU a request
 * (bench/tools/runtime-costs.js). The entry worker still listens, on a port of its own, for
 * Miniflare's own use.
 * @param {number} port
 */
export function ownSocket(port) {
  return { unsafeDirectSockets: [{ host: '127.0.0.1', port }] };
}

/**
 * The Worker's `fetch()` calls (every provider call) go out from the Worker itself, as they do when
 * deployed, not through Miniflare's `strip-cf-connecting-ip` worker: another isolate that copies every
 * outbound request's headers to drop `CF-Connecting-IP` and add `CF-Worker`, which cost Valve about a
 * tenth of its CPU per request at 16 connections (bench/tools/ab-bundles.js, both ways round). Nothing
 * is lost by skipping it: Valve builds every provider request's headers itself and never forwards a
 * caller's (test/node/dev/npm-start-outbound.test.ts checks what a provider receives), and no
 * provider reads `CF-Worker`.
 */
export const directOutbound = { stripCfConnectingIp: false };
