import { ApiError } from '../errors';
import { type Catalog, catalogSchema } from './catalog';
import { defaultCatalog } from './default-catalog';

let cached: { raw: string; catalog: Catalog } | undefined;

/**
 * The catalog in force: `VALVE_CATALOG` (JSON) when set, else the embedded default. Parsed once per
 * isolate; a broken catalog fails every request loudly with the path of each bad field.
 */
export function loadCatalog(raw: string | undefined): Catalog {
  const text = raw?.trim() ?? '';
  if (text === '') return defaultCatalog;
  if (cached?.raw === text) return cached.catalog;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ApiError('internal.error', 'VALVE_CATALOG is not valid JSON.');
  }
  const result = catalogSchema.safeParse(parsed);
  if (!result.success) {
    const issues = result.error.issues.map((issue) => ({
      path: issue.path.join('.'),
      message: issue.message,
    }));
    throw new ApiError('internal.error', 'VALVE_CATALOG does not match the catalog schema.', {
      details: { issues },
    });
  }
  cached = { raw: text, catalog: result.data };
  return result.data;
}
