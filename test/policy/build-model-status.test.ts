import { describe, expect, it } from 'vitest';
import { buildModelStatus, consoleCircuitOf } from '../../src/policy/build-model-status';
import type { Catalog } from '../../src/policy/catalog';
import { configuredProviders } from '../../src/policy/configured-providers';
import { simModel } from '../helpers/catalog-fixtures';

const now = 1_767_225_600_000;
const closed = { circuit: 'closed' as const, samples: 0, errorRate: 0 };

describe('the console’s circuit of a model', () => {
  it('is closed without a record', () => {
    expect(consoleCircuitOf(undefined, now)).toEqual({ circuit: 'closed', retryAt: null });
  });

  it('is open with the time of its probe while the cooldown runs', () => {
    const open = { ...closed, circuit: 'open' as const, retryAt: now + 5000 };
    expect(consoleCircuitOf(open, now)).toEqual({ circuit: 'open', retryAt: now + 5000 });
  });

  it('is probing once the cooldown has passed, whether the probe is waiting or out', () => {
    expect(consoleCircuitOf({ ...closed, circuit: 'half_open', retryAt: now - 1 }, now)).toEqual({
      circuit: 'probing',
      retryAt: null,
    });
    // A probe handed out keeps the circuit open in the health object, past its retry time.
    expect(consoleCircuitOf({ ...closed, circuit: 'open', retryAt: now - 1 }, now)).toEqual({
      circuit: 'probing',
      retryAt: null,
    });
  });
});

describe('the console’s list of models', () => {
  const catalog: Catalog = {
    providers: [
      { id: 'sim', kind: 'sim' },
      { id: 'openai', kind: 'openai', apiKeyEnv: 'OPENAI_API_KEY' },
    ],
    models: [
      simModel('fast'),
      simModel('deep'),
      { ...simModel('gpt-test'), provider: 'openai', regions: ['eu'] },
    ],
  };

  function build(models: Record<string, object>, keys: Record<string, string> = {}) {
    return buildModelStatus({
      catalog,
      notConfigured: configuredProviders(catalog, (name) => keys[name]),
      health: { at: now, models: models as never },
    });
  }

  it('lists every model in catalog order, saying which provider has no key', () => {
    const list = build({});
    expect(list.at).toBe(now);
    expect(list.models.map((m) => [`${m.provider}/${m.model}`, m.configured, m.regions])).toEqual([
      ['sim/fast', true, ['us', 'eu']],
      ['sim/deep', true, ['us', 'eu']],
      ['openai/gpt-test', false, ['eu']],
    ]);
    expect(list.models[2]?.notConfiguredReason).toBe(
      'provider openai has no key: set the OPENAI_API_KEY secret',
    );
    expect(list.models[0]).not.toHaveProperty('notConfiguredReason');
  });

  it('shows observed latency and error rate once there are samples', () => {
    const list = build({
      'sim/fast': {
        ...closed,
        samples: 7,
        errorRate: 0.25,
        ttftMsP50: 12,
        ttftMsP90: 30,
        lastErrorKind: 'server',
      },
    });
    expect(list.models[0]?.latency.observed).toEqual({ ttftMsP50: 12, ttftMsP90: 30 });
    expect(list.models[0]?.health).toEqual({
      circuit: 'closed',
      circuitScope: 'model',
      retryAt: null,
      samples: 7,
      errorRate: 0.25,
      lastErrorKind: 'server',
    });
    expect(list.models[1]?.latency.observed).toBeNull();
  });

  it('puts an open provider circuit in front of each of its models', () => {
    const list = build(
      {
        'openai/*': { ...closed, circuit: 'open', retryAt: now + 60_000 },
        'sim/deep': { ...closed, circuit: 'open', retryAt: now + 1000 },
      },
      { OPENAI_API_KEY: 'k' },
    );
    expect(
      list.models.map((m) => [m.model, m.health.circuit, m.health.circuitScope, m.health.retryAt]),
    ).toEqual([
      ['fast', 'closed', 'model', null],
      ['deep', 'open', 'model', now + 1000],
      ['gpt-test', 'open', 'provider', now + 60_000],
    ]);
  });
});
