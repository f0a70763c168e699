import { Hono } from 'hono';
import { html, raw } from 'hono/html';
import type { AppEnv } from '../env';
import { buildOpenApiDocument } from '../openapi/build-document';
import type { Operation } from '../openapi/operation';
import { operations } from '../openapi/operations';

function who(operation: Operation): string {
  if (operation.security.kind === 'public') return 'public';
  if (operation.security.kind === 'admin') return 'admin token';
  return `API key${operation.security.scope ? `, scope ${operation.security.scope}` : ''}`;
}

function section(operation: Operation) {
  const example = operation.example.body === undefined ? '' : JSON.stringify(operation.example.body, null, 2);
  return html`<section>
    <h2><code>${operation.method.toUpperCase()} ${operation.path}</code></h2>
    <p>${operation.summary} <em>(${who(operation)})</em></p>
    ${example ? html`<h3>Example body</h3><pre>${example}</pre>` : ''}
    <h3>Example answer (${operation.status})</h3>
    <pre>${JSON.stringify(operation.example.response, null, 2)}</pre>
  </section>`;
}

export const docsRoutes = new Hono<AppEnv>()
  .get('/openapi.json', (c) => c.json(buildOpenApiDocument(c.env.VALVE_VERSION)))
  .get('/docs', (c) =>
    c.html(html`<!doctype html>
      <html lang="en">
        <head>
          <meta charset="utf-8" />
          <title>Valve API</title>
          <style>
            ${raw('body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}pre{background:#f4f4f4;padding:.75rem;overflow:auto}h2{border-top:1px solid #ddd;padding-top:1rem}')}
          </style>
        </head>
        <body>
          <h1>Valve API</h1>
          <p>
            Every error is one body, <code>{ "error": { code, message, category, retryable, details, requestId } }</code>.
            The machine-readable document is <a href="/openapi.json">/openapi.json</a> (OpenAPI 3.1).
          </p>
          ${operations.map(section)}
        </body>
      </html>`),
  );
