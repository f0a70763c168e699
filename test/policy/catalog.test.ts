import { Validator } from '@cfworker/json-schema';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import catalogJsonSchema from '../../schemas/catalog.schema.json';
import { discoverySchema } from '../../src/contracts/discovery';
import { ApiError } from '../../src/errors';
import { catalogSchema } from '../../src/policy/catalog';
import { defaultCatalog } from '../../src/policy/default-catalog';
import { CatalogError, loadCatalog, parseCatalog } from '../../src/policy/load-catalog';
import { providerKeyNameProblem, valveOwnNames } from '../../src/policy/provider-key-name';

// schemas/catalog.schema.json and schemas/discovery.schema.json are generated from the zod schemas;
// to regenerate after changing one, run: npx vitest run --project workers test/policy/catalog.test.ts -u
function published(schema: z.ZodType, id: string, title: string): string {
  const json = z.toJSONSchema(schema, { target: 'draft-2020-12' });
  return `${JSON.stringify({ ...json, $id: `https://valve.dev/schemas/${id}`, title }, null, 2)}\n`;
}

describe('the catalog', () => {
  it('publishes its JSON Schema and the discovery document’s, generated from the zod schemas', async () => {
    await expect(published(catalogSchema, 'catalog.schema.json', 'Valve model catalog')).toMatchFileSnapshot(
      '../../schemas/catalog.schema.json',
    );
    await expect(published(discoverySchema, 'discovery.schema.json', 'GET /v1/models')).toMatchFileSnapshot(
      '../../schemas/discovery.schema.json',
    );
  });

  it('ships a default that validates against both the zod schema and the JSON Schema', () => {
    expect(catalogSchema.safeParse(defaultCatalog).success).toBe(true);
    const validator = new Validator(catalogJsonSchema as object, '2020-12', false);
    expect(validator.validate(JSON.parse(JSON.stringify(defaultCatalog))).valid).toBe(true);
  });

  it('notes the source and date of every real price in the default', () => {
    for (const model of defaultCatalog.models.filter((m) => m.provider !== 'sim')) {
      expect(model.source).toMatch(/https:\/\/.* read 2026-\d\d-\d\d/);
    }
    expect(new Set(defaultCatalog.providers.map((p) => p.kind))).toEqual(
      new Set(['sim', 'openai', 'anthropic', 'gemini', 'workers-ai']),
    );
  });

  it('fails loudly on a broken catalog, naming the path of each bad field', () => {
    const broken = {
      providers: [{ id: 'sim', kind: 'sim' }],
      models: [
        { ...defaultCatalog.models[0], priceUsdPerMTok: { input: -1, output: 1 } },
        { ...defaultCatalog.models[1], provider: 'nobody', typo: true },
      ],
    };
    let error: unknown;
    try {
      parseCatalog(JSON.stringify(broken));
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(CatalogError);
    const paths = (error as CatalogError).issues.map((issue) => issue.path);
    expect(paths).toEqual(expect.arrayContaining(['models.0.priceUsdPerMTok.input', 'models.1.typo']));
    expect((error as CatalogError).message).toMatch(/^ {2}- models\.0\.priceUsdPerMTok\.input: /m);
    expect((error as CatalogError).message).toMatch(/^ {2}- models\.1\.typo: unknown field$/m);
    // wrangler rewrites lines that start with "at " as stack frames
    expect((error as CatalogError).message).not.toMatch(/^\s*at /m);
    expect(() => loadCatalog('{not json')).toThrow(ApiError);
  });

  it('refuses an apiKeyEnv that names one of Valve’s own secrets or any name outside the provider rule', () => {
    const withKey = (apiKeyEnv: string) =>
      JSON.stringify({
        providers: [{ id: 'evil', kind: 'openai', baseUrl: 'https://attacker.example/v1', apiKeyEnv }],
        models: [{ ...defaultCatalog.models[0], provider: 'evil' }],
      });
    for (const name of [...valveOwnNames, 'STRIPE_API_KEY', 'VALVE_API_KEY', 'HOME']) {
      let error: unknown;
      try {
        parseCatalog(withKey(name));
      } catch (thrown) {
        error = thrown;
      }
      expect(error, name).toBeInstanceOf(CatalogError);
      const issues = (error as CatalogError).issues.filter((i) => i.path === 'providers.0.apiKeyEnv');
      expect(issues.length, name).toBeGreaterThan(0);
      expect(issues.map((i) => i.message).join(' ')).toContain('PROVIDER_');
    }
    const own = (() => {
      try {
        parseCatalog(withKey('ADMIN_TOKEN'));
      } catch (thrown) {
        return (thrown as CatalogError).message;
      }
      return '';
    })();
    expect(own).toContain("ADMIN_TOKEN is one of Valve's own secrets");
    const validator = new Validator(catalogJsonSchema as object, '2020-12', false);
    expect(validator.validate(JSON.parse(withKey('ADMIN_TOKEN'))).valid).toBe(false);
    expect(validator.validate(JSON.parse(withKey('PROVIDER_VLLM_KEY'))).valid).toBe(true);
  });

  it('keeps the default catalog key names and PROVIDER_ names working', () => {
    for (const name of ['OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'GEMINI_API_KEY', 'PROVIDER_VLLM_KEY']) {
      expect(providerKeyNameProblem(name)).toBeUndefined();
    }
    expect(defaultCatalog.providers.map((p) => p.apiKeyEnv).filter(Boolean)).toEqual([
      'OPENAI_API_KEY',
      'ANTHROPIC_API_KEY',
      'GEMINI_API_KEY',
    ]);
  });

  it('uses the embedded default when VALVE_CATALOG is empty', () => {
    expect(loadCatalog('')).toBe(defaultCatalog);
    expect(loadCatalog(undefined)).toBe(defaultCatalog);
  });
});
