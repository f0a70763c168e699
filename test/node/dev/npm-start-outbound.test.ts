import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogOf, simModel } from '../../helpers/catalog-fixtures';
import { type FakeUpstream, fixture, startFakeUpstream } from '../fake-upstream/fake-upstream';
import { type NpmStart, printedKeyAndUrl, startNpmStart } from '../helpers/start-npm-start';

// What a provider receives from `npm start`: the Worker's calls leave it directly, as a deployed
// Worker's do, not through Miniflare's strip-cf-connecting-ip worker (scripts/as-deployed.js), and
// they carry only the headers Valve sets for the provider, never the caller's: not its address, its
// cookies, its forwarding chain or its Valve key.

let upstream: FakeUpstream;
let started: NpmStart;

beforeAll(async () => {
  upstream = await startFakeUpstream();
  upstream.script('openai', [{ type: 'json', body: fixture('openai/text.json') }]);
  // The sim entry's figures, served by an OpenAI-kind provider at the fake upstream.
  const catalog = catalogOf(
    [simModel('outbound-model', { provider: 'openai', simulate: undefined })],
    [{ id: 'openai', kind: 'openai', baseUrl: `${upstream.url}/openai/v1`, apiKeyEnv: 'OPENAI_API_KEY' }],
  );
  started = await startNpmStart(
    `VALVE_CATALOG=${JSON.stringify(catalog)}\nOPENAI_API_KEY=sk-outbound-test\n`,
  );
}, 120_000);

afterAll(async () => {
  await started?.cleanUp();
  await upstream?.close();
});

describe('npm start, a provider call', () => {
  it('leaves the Worker directly and carries the provider key, none of the caller’s headers', async () => {
    const { key, url } = printedKeyAndUrl(started.output());
    const res = await fetch(url as string, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
        'cf-connecting-ip': '203.0.113.7',
        'x-forwarded-for': '203.0.113.7, 198.51.100.2',
        'x-real-ip': '203.0.113.7',
        cookie: 'session=caller-secret',
      },
      body: JSON.stringify({ task: 'greet', instructions: 'Say hello.' }),
    });
    expect(res.status).toBe(200);
    const [arrival, ...more] = upstream.arrivals('openai');
    expect(more).toHaveLength(0);
    const headers = arrival?.headers ?? {};
    expect(headers.authorization).toBe('Bearer sk-outbound-test');
    // Miniflare's strip-cf-connecting-ip worker, when it is in the way, adds CF-Worker to every call.
    expect(headers['cf-worker']).toBeUndefined();
    for (const name of ['cf-connecting-ip', 'x-forwarded-for', 'x-real-ip', 'cookie']) {
      expect(headers[name], name).toBeUndefined();
    }
    expect(JSON.stringify(headers)).not.toContain('203.0.113.7');
    expect(JSON.stringify(headers)).not.toContain(key as string);
  });
});
