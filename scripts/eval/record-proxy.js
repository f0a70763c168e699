// A loopback HTTP proxy between Valve and the model server that keeps the last request body it
// forwarded: the wire body the model really received, kept with the eval's results.
import { createServer } from 'node:http';

export function startRecordProxy(target) {
  let last;
  const server = createServer(async (req, res) => {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const body = Buffer.concat(chunks);
    if (req.method === 'POST') last = body.toString('utf8');
    try {
      const upstream = await fetch(`${target}${req.url}`, {
        method: req.method,
        headers: {
          'content-type': req.headers['content-type'] ?? 'application/json',
          // A hosted endpoint's key, as Valve sends it; nothing else of Valve's request is passed on.
          ...(req.headers.authorization ? { authorization: req.headers.authorization } : {}),
        },
        body: req.method === 'GET' || req.method === 'HEAD' ? undefined : body,
      });
      res.writeHead(upstream.status, {
        'content-type': upstream.headers.get('content-type') ?? 'application/json',
      });
      res.end(Buffer.from(await upstream.arrayBuffer()));
    } catch (error) {
      res.writeHead(502, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `eval proxy: ${error.message}` } }));
    }
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      resolve({
        url: `http://127.0.0.1:${port}`,
        /** The last body forwarded, parsed, and forgets it. */
        take() {
          const body = last;
          last = undefined;
          return body === undefined ? undefined : JSON.parse(body);
        },
        // Kept-alive connections would hold close() open after an interrupted run.
        close: () =>
          new Promise((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}
