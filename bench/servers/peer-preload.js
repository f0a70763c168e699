// Preloaded (`node --import`) into the peer gateway (Portkey's open-source gateway on Node):
// 1. its CLI takes a port but no host, so every server it opens is made to listen on 127.0.0.1 only;
// 2. on Node its streaming path appends headers to the upstream's fetch Response, whose headers are
//    immutable there (`TypeError: immutable`, Portkey-AI/gateway issues #1389 and #1550), so every
//    streamed request fails; fetch answers are re-wrapped in a Response with mutable headers. That
//    costs the peer one object per upstream call and changes nothing else.
import net from 'node:net';

const listen = net.Server.prototype.listen;
/** @this {net.Server} @param {unknown[]} args */
net.Server.prototype.listen = function listenOnLoopback(...args) {
  const [first] = args;
  if (typeof first === 'number' || typeof first === 'string') {
    const callback = args.find((arg) => typeof arg === 'function');
    return listen.call(this, { port: Number(first), host: '127.0.0.1' }, callback);
  }
  if (first && typeof first === 'object' && !('path' in first)) {
    return listen.call(this, { ...first, host: '127.0.0.1' }, ...args.slice(1));
  }
  return listen.apply(this, args);
};

const fetch = globalThis.fetch;
/** @type {typeof globalThis.fetch} */
globalThis.fetch = async (input, init) => {
  const res = await fetch(input, init);
  return new Response(res.body, { status: res.status, statusText: res.statusText, headers: res.headers });
};
