import type { z } from 'zod';
import { ApiError } from '../errors';
import { type Catalog, catalogSchema } from './catalog';
import { defaultCatalog } from './default-catalog';

/** A catalog that does not validate, with the path of each bad field. */
export class CatalogError extends Error {
  readonly issues: { path: string; message: string }[];

  constructor(message: string, issues: { path: string; message: string }[]) {
    // One line per field. A line must not start with "at ": wrangler and workerd take such lines of
    // an uncaught error for stack frames and rewrite them (into "at [object Object]").
    super(
      `${message}\n${issues.map((issue) => `  - ${issue.path || '(root)'}: ${issue.message}`).join('\n')}`,
    );
    this.name = 'CatalogError';
    this.issues = issues;
  }
}

/** Parses and validates catalog JSON; throws CatalogError naming every bad field. */
export function parseCatalog(text: string): Catalog {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new CatalogError('VALVE_CATALOG is not valid JSON.', [{ path: '', message: String(error) }]);
  }
  const result = catalogSchema.safeParse(parsed);
  if (!result.success) {
    throw new CatalogError(
      'VALVE_CATALOG does not match the catalog schema (schemas/catalog.schema.json).',
      result.error.issues.flatMap(issueLines),
    );
  }
  return result.data;
}

/** A zod issue as path and reason; an unknown member is named by its own path. */
function issueLines(issue: z.core.$ZodIssue): { path: string; message: string }[] {
  const path = issue.path.map(String);
  if (issue.code === 'unrecognized_keys') {
    return issue.keys.map((key) => ({ path: [...path, key].join('.'), message: 'unknown field' }));
  }
  return [{ path: path.join('.'), message: issue.message }];
}

let cached: { raw: string; catalog: Catalog } | undefined;

/**
 * The catalog in force: `VALVE_CATALOG` (JSON) when set, else the embedded default. The Worker checks
 * it at startup (src/index.ts), so a broken catalog stops `wrangler dev` and `wrangler deploy` with the
 * path of each bad field; here it is parsed once per isolate, and a broken one fails every request.
 */
export function loadCatalog(raw: string | undefined): Catalog {
  const text = raw?.trim() ?? '';
  if (text === '') return defaultCatalog;
  if (cached?.raw === text) return cached.catalog;
  try {
    const catalog = parseCatalog(text);
    cached = { raw: text, catalog };
    return catalog;
  } catch (error) {
    if (!(error instanceof CatalogError)) throw error;
    throw new ApiError(
      'internal.error',
      'The model catalog is broken; the operator must fix VALVE_CATALOG.',
      {
        cause: error,
        details: { issues: error.issues },
      },
    );
  }
}
