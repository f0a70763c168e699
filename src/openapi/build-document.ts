import { z } from 'zod';
import { errorBodySchema } from '../contracts/error-body';
import { wireSchemas } from '../contracts/wire-schema';
import { anthropicErrorBodySchema } from '../doors/anthropic/wire-schemas';
import { openaiErrorBodySchema } from '../doors/openai/wire-schemas';
import { correlationIdPattern } from '../middleware/request-ids';
import { errorResponsesOf } from './error-responses';
import type { Operation } from './operation';
import { operations } from './operations';

type JsonObject = Record<string, unknown>;

/** The JSON Schema of a zod contract; a query parameter's is the one it has on the wire (query-params.ts). */
function schemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonObject {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, {
    io,
    unrepresentable: 'any',
    override: ({ zodSchema, jsonSchema }) => {
      const wire = wireSchemas.get(zodSchema);
      if (wire === undefined) return;
      for (const key of Object.keys(jsonSchema)) delete (jsonSchema as JsonObject)[key];
      Object.assign(jsonSchema, wire);
    },
  }) as JsonObject;
  return rest;
}

/** The parameters of an object schema, each required when the schema requires it. */
function parametersIn(schema: z.ZodObject, where: 'path' | 'query'): JsonObject[] {
  const json = schemaOf(schema, 'input');
  const required = new Set((json.required ?? []) as string[]);
  return Object.entries((json.properties ?? {}) as Record<string, JsonObject>).map(([name, schema]) => ({
    name,
    in: where,
    required: where === 'path' || required.has(name),
    schema,
    // A list is written comma-separated: `groupBy=model,day`.
    ...(schema.type === 'array' ? { style: 'form', explode: false } : {}),
  }));
}

function parametersOf(operation: Operation): JsonObject[] {
  const declared = operation.params ? parametersIn(operation.params, 'path') : [];
  const path = [...operation.path.matchAll(/\{([^}]+)\}/g)].map(([, name]) => ({
    ...(declared.find((p) => p.name === name) ?? {
      name,
      in: 'path',
      required: true,
      schema: { type: 'string', minLength: 1 },
    }),
    ...(operation.example.params?.[name as string] === undefined
      ? {}
      : { example: operation.example.params[name as string] }),
  }));
  const query = operation.query ? parametersIn(operation.query, 'query') : [];
  const headers = [
    { $ref: '#/components/parameters/CorrelationId' },
    { $ref: '#/components/parameters/RequestId' },
  ];
  return [...path, ...query, ...headers];
}

function securityOf(operation: Operation): JsonObject[] {
  if (operation.security.kind === 'public') return [];
  return [{ [operation.security.kind === 'admin' ? 'adminToken' : 'apiKey']: [] }];
}

/** A caller's own id for a request: checked, and echoed in X-Correlation-Id (src/middleware/request-ids.ts). */
function correlationHeader(name: string): JsonObject {
  return {
    name,
    in: 'header',
    required: false,
    description: `Your id for this request, echoed as X-Correlation-Id; anything else is a 400.`,
    schema: { type: 'string', pattern: correlationIdPattern.source },
  };
}

function successOf(operation: Operation): JsonObject {
  const streams = Object.fromEntries(
    (operation.streams ?? []).map((type) => [type, { schema: { type: 'string' } }]),
  );
  return {
    description: operation.streams ? 'Success: JSON, or a stream when one is asked for' : 'Success',
    content: {
      'application/json': {
        schema: schemaOf(operation.response, 'output'),
        example: operation.example.response,
      },
      ...streams,
    },
  };
}

/** The OpenAPI 3.1 document, generated from the zod contracts of every operation. */
export function buildOpenApiDocument(version: string): JsonObject {
  const paths: Record<string, JsonObject> = {};
  for (const operation of operations) {
    const scope =
      operation.security.kind === 'key' && operation.security.scope
        ? ` Scope: \`${operation.security.scope}\`.`
        : '';
    paths[operation.path] ??= {};
    (paths[operation.path] as JsonObject)[operation.method] = {
      summary: operation.summary,
      description: `${operation.summary}${scope}`,
      security: securityOf(operation),
      parameters: parametersOf(operation),
      ...(operation.body
        ? {
            requestBody: {
              required: true,
              ...(operation.bodyDescription ? { description: operation.bodyDescription } : {}),
              content: {
                'application/json': {
                  schema: schemaOf(operation.body, 'input'),
                  example: operation.example.body,
                },
              },
            },
          }
        : {}),
      responses: { [String(operation.status)]: successOf(operation), ...errorResponsesOf(operation) },
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Valve',
      version,
      description:
        'A trust-aware Reason API: untrusted context never acts as instructions, one budget of cost and time across every attempt, and signed, salted receipts in a verifiable Merkle log.',
    },
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    paths,
    components: {
      schemas: {
        ErrorBody: schemaOf(errorBodySchema, 'output'),
        OpenAiErrorBody: schemaOf(openaiErrorBodySchema, 'output'),
        AnthropicErrorBody: schemaOf(anthropicErrorBodySchema, 'output'),
      },
      parameters: {
        CorrelationId: correlationHeader('X-Correlation-Id'),
        RequestId: correlationHeader('X-Request-Id'),
      },
      securitySchemes: {
        apiKey: {
          type: 'http',
          scheme: 'bearer',
          description: 'An API key (`vk_…`) from POST /v1/admin/keys.',
        },
        adminToken: { type: 'http', scheme: 'bearer', description: 'The ADMIN_TOKEN secret.' },
      },
    },
  };
}
