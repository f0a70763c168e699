import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import type { Catalog } from '../../src/policy/catalog';
import { catalogInForce } from '../../src/policy/catalog-in-force';
import { defaultCatalog } from '../../src/policy/default-catalog';
import { simModel } from '../helpers/catalog-fixtures';

const catalog: Catalog = {
  providers: [
    { id: 'sim', kind: 'sim', demo: true },
    { id: 'openai', kind: 'openai', apiKeyEnv: 'PROVIDER_OPENAI_KEY' },
  ],
  models: [simModel('fast'), { ...simModel('gpt-test'), provider: 'openai' }],
};
const [sim, openai] = catalog.providers;

describe('the catalog in force', () => {
  it('reads the Worker’s own environment by name: its secrets and its bindings', () => {
    // The generated Env is an interface without an index; the lookup reads the real env object.
    const { lookup } = catalogInForce(env);
    expect(lookup('ADMIN_TOKEN')).toBe('test-admin-token');
    expect(lookup('DB')).toBe(env.DB);
    expect(lookup('PROVIDER_NOT_SET')).toBeUndefined();
  });

  it('is the default catalog when VALVE_CATALOG is blank', () => {
    expect(catalogInForce({ VALVE_CATALOG: ' ' }).catalog).toBe(defaultCatalog);
    expect(catalogInForce({}).catalog).toBe(defaultCatalog);
  });

  it('says which provider lacks its key, and takes the key from the name the catalog gives', () => {
    const without = catalogInForce({ VALVE_CATALOG: JSON.stringify(catalog) });
    expect(without.catalog.models.map((m) => m.model)).toEqual(['fast', 'gpt-test']);
    expect(without.notConfigured(openai!)).toBe(
      'provider openai has no key: set the PROVIDER_OPENAI_KEY secret',
    );
    expect(without.notConfigured(sim!)).toBeUndefined();

    const withKeyEnv = { VALVE_CATALOG: JSON.stringify(catalog), PROVIDER_OPENAI_KEY: 'sk-test' };
    const withKey = catalogInForce(withKeyEnv);
    expect(withKey.lookup('PROVIDER_OPENAI_KEY')).toBe('sk-test');
    expect(withKey.notConfigured(openai!)).toBeUndefined();
    expect(withKey.notConfigured(sim!)).toMatch(/stand-in used only while no real provider is configured/);
  });

  it('finds no member an object inherits: a name is the environment’s own or nothing', () => {
    const { lookup } = catalogInForce({});
    expect(lookup('constructor')).toBeUndefined();
    expect(lookup('toString')).toBeUndefined();
  });
});
