import { z } from 'zod';
import { errorBodySchema } from '../contracts/error-body';
import { openaiErrorBodySchema } from '../openai/wire-schemas';
import type { Operation } from './operation';
import { operations } from './operations';

type JsonObject = Record<string, unknown>;

function schemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonObject {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonObject;
  return rest;
}

function parametersOf(operation: Operation): JsonObject[] {
  const path = [...operation.path.matchAll(/\{([^}]+)\}/g)].map((match) => ({
    name: match[1],
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
  const query = operation.query
    ? Object.entries((schemaOf(operation.query, 'input').properties ?? {}) as Record<string, JsonObject>).map(
        ([name, schema]) => ({ name, in: 'query', required: false, schema }),
      )
    : [];
  return [...path, ...query];
}

function securityOf(operation: Operation): JsonObject[] {
  if (operation.security.kind === 'public') return [];
  return [{ [operation.security.kind === 'admin' ? 'adminToken' : 'apiKey']: [] }];
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
              content: {
                'application/json': {
                  schema: schemaOf(operation.body, 'input'),
                  example: operation.example.body,
                },
              },
            },
          }
        : {}),
      responses: {
        [String(operation.status)]: {
          description: 'Success',
          content: {
            'application/json': {
              schema: schemaOf(operation.response, 'output'),
              example: operation.example.response,
            },
          },
        },
        default:
          operation.errorBody === 'openai'
            ? {
                description: 'Every error in OpenAI’s shape; Valve’s own error object rides in `valve`',
                content: { 'application/json': { schema: { $ref: '#/components/schemas/OpenAiErrorBody' } } },
              }
            : {
                description: 'Every error: one body, codes in schemas/error-codes.json',
                content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } },
              },
      },
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
