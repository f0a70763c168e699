// The runtime's floor: a Worker that does nothing but forward. It sends the request's body to the
// upstream's chat completions URL and returns the upstream's answer as it comes, with no parsing, no
// auth, no storage and no copy. Served by bench/servers/floor.js the way the bench serves Valve's deploy
// bundle, it is the fastest a Worker on this runtime can proxy the same call; Valve's throughput and
// CPU per request are read as a fraction and a multiple of its.
export default {
  /**
   * @param {Request} request
   * @param {{ UPSTREAM_URL: string, UPSTREAM_KEY: string }} env
   */
  fetch(request, env) {
    return fetch(`${env.UPSTREAM_URL}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${env.UPSTREAM_KEY}` },
      body: request.body,
    });
  },
};
