import { Validator } from '@cfworker/json-schema';
import { describe, expect, it } from 'vitest';
import { app } from '../../src/app';
import { buildOpenApiDocument } from '../../src/openapi/build-document';
import { call } from '../helpers/api';

type JsonObject = Record<string, unknown>;

const document = buildOpenApiDocument('test');
const paths = document.paths as Record<string, Record<string, JsonObject>>;

/**
 * The documentation, the browser verifier and the console are pages for people, not API operations;
 * the C2SP tlog-tiles resources are static text and bytes that C2SP specifies (docs/log.md), not JSON
 * operations.
 */
const documentationRoutes = new Set([
  'get /openapi.json',
  'get /docs',
  'get /verify',
  'get /verify/valve-verify.html',
  'get /console',
  'get /log/{shard}/checkpoint',
  'get /log/{shard}/tile/{path}',
]);

/** The app's own routes with a concrete handler (not middleware, not the 405 fallbacks), as OpenAPI templates. */
function appRoutes(): string[] {
  const seen = new Set<string>();
  for (const route of app.routes) {
    if (route.method === 'ALL') continue;
    // `:name{regex}` (a parameter with its own pattern) is `{name}` too.
    seen.add(`${route.method.toLowerCase()} ${route.path.replace(/:([A-Za-z]+)(\{[^}]*\})?/g, '{$1}')}`);
  }
  return [...seen].filter((route) => !documentationRoutes.has(route)).sort();
}

function documented(): string[] {
  return Object.entries(paths)
    .flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method} ${path}`))
    .sort();
}

describe('the OpenAPI document', () => {
  it('documents every route the app serves, and nothing it does not', () => {
    expect(documented()).toEqual(appRoutes());
  });

  it('is OpenAPI 3.1 with the error body as a component', () => {
    expect(document.openapi).toBe('3.1.0');
    expect((document.components as { schemas: JsonObject }).schemas.ErrorBody).toBeDefined();
  });

  const examples = Object.entries(paths).flatMap(([path, methods]) =>
    Object.entries(methods).flatMap(([method, op]) => {
      const out: [string, JsonObject, unknown][] = [];
      const body = (
        op.requestBody as
          | { content: { 'application/json': { schema: JsonObject; example: unknown } } }
          | undefined
      )?.content['application/json'];
      if (body) out.push([`${method} ${path} request`, body.schema, body.example]);
      for (const [status, response] of Object.entries(op.responses as Record<string, JsonObject>)) {
        const content = (response.content as Record<string, { schema: JsonObject; example?: unknown }>)[
          'application/json'
        ];
        if (content?.example !== undefined)
          out.push([`${method} ${path} ${status}`, content.schema, content.example]);
      }
      return out;
    }),
  );

  it.each(examples)('%s example validates against its schema', (_, schema, example) => {
    const result = new Validator(schema, '2020-12', false).validate(example);
    expect(result.errors).toEqual([]);
  });

  it('catches an example that does not fit (the check bites)', () => {
    const [, schema] = examples.find(([name]) => name === 'post /v1/reason request') ?? [];
    expect(new Validator(schema as JsonObject, '2020-12', false).validate({ task: 'x' }).valid).toBe(false);
  });

  it('is served at /openapi.json, with a documentation page at /docs', async () => {
    const json = await call('/openapi.json');
    expect(json.status).toBe(200);
    expect(((await json.json()) as JsonObject).openapi).toBe('3.1.0');
    const page = await call('/docs');
    expect(page.headers.get('Content-Type')).toContain('text/html');
    const text = await page.text();
    expect(text).toContain('POST /v1/reason');
    expect(text).toContain('/openapi.json');
  });
});
