import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Catalog } from '../../src/policy/catalog';
import { policyLead } from '../../src/prompt/policy-text';
import { createKey } from '../helpers/api';
import { simModel } from '../helpers/catalog-fixtures';
import { keyFragmentsIn } from '../helpers/key-fragments';
import { callWithCatalog } from '../helpers/with-catalog';

// A provider that answers an error quoting everything it was sent: the key, Valve's system policy
// with its canary and nonce, and the caller's confidential content. None of it may come back to the
// caller (error body, trace) or reach the server log.

const apiKey = 'sk-proj-LeakyKey0123456789abcdefghij';
const content = 'Patient Jane Roe, born 1961-04-12, diagnosis withheld from her employer.';

const catalog: Catalog = {
  providers: [{ id: 'openai', kind: 'openai', apiKeyEnv: 'OPENAI_API_KEY' }],
  models: [simModel('gpt-echo', { provider: 'openai', simulate: undefined })],
};

afterEach(() => {
  vi.restoreAllMocks();
});

describe('a provider error that quotes the request', () => {
  for (const status of [400, 500]) {
    it(`(${status}) reaches neither the caller nor the log with the key, the policy or the content`, async () => {
      const { key } = await createKey('leaky');
      const secrets: string[] = [apiKey, content, 'Jane Roe', policyLead];
      vi.spyOn(globalThis, 'fetch').mockImplementation(async (_input, init) => {
        const wire = String(init?.body);
        const nonce = /data-([0-9a-f]{32})/.exec(wire)?.[1];
        const canary = /reference number ([0-9a-f]{16})/.exec(wire)?.[1];
        if (nonce) secrets.push(nonce);
        if (canary) secrets.push(canary);
        const auth = new Headers(init?.headers).get('authorization') ?? '';
        const message = `Bad request from ${auth}: ${wire}`;
        return Response.json({ error: { message, type: 'invalid_request_error', code: null } }, { status });
      });
      const logged: string[] = [];
      for (const level of ['log', 'info', 'warn', 'error'] as const) {
        vi.spyOn(console, level).mockImplementation((...args: unknown[]) => {
          logged.push(args.map(String).join(' '));
        });
      }
      const { res, settled } = await callWithCatalog(
        catalog,
        '/v1/reason',
        {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${key}` },
          body: JSON.stringify({
            task: 'summarize',
            instructions: 'Summarize the record.',
            context: [{ trust: 'untrusted', privacy: 'internal', content }],
            modelPolicy: { allowFallback: false },
          }),
        },
        { OPENAI_API_KEY: apiKey },
      );
      await settled();
      expect(res.status).toBeGreaterThanOrEqual(400);
      const body = await res.text();
      // The message is the allow-listed summary; not a word of the provider's own text comes back.
      expect(body).not.toContain('Bad request from');
      expect(body).toContain(`(openai, HTTP ${status}, invalid_request_error)`);
      expect(secrets.length).toBeGreaterThanOrEqual(6);
      for (const secret of secrets) {
        expect(body, `error body has ${secret}`).not.toContain(secret);
        for (const line of logged) expect(line, `log has ${secret}`).not.toContain(secret);
      }
    });
  }
});

describe('a provider error that spells the key out', () => {
  // Spaced, split by zero-width characters, case swapped, reversed: in the message, the error code and
  // the request-id header. The caller's error body and the log hold no 8 characters of it in a row.
  const spaced = [...apiKey].join(' ');
  const zeroWidth = [...apiKey].join('\u200b');
  const swapped = [...apiKey]
    .map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase()))
    .join('');
  const reversed = [...apiKey].reverse().join('');
  // A catalog of its own per path: the failures before these open no circuit these depend on.
  const spelledCatalog = (id: string): Catalog => ({
    providers: [{ id, kind: 'openai', apiKeyEnv: 'OPENAI_API_KEY' }],
    models: [simModel('gpt-spelled', { provider: id, simulate: undefined })],
  });
  const paths = [
    [
      '/v1/reason',
      {
        task: 'summarize',
        instructions: 'Summarize.',
        context: [{ trust: 'untrusted', privacy: 'internal', content }],
        modelPolicy: { allowFallback: false },
      },
      'spelled-reason',
    ],
    [
      '/openai/v1/chat/completions',
      { model: 'spelled-door/gpt-spelled', messages: [{ role: 'user', content }] },
      'spelled-door',
    ],
  ] as const;

  for (const [path, request, provider] of paths) {
    it(`reaches neither the caller of ${path} nor the log`, async () => {
      const { key } = await createKey('spelled');
      vi.spyOn(globalThis, 'fetch').mockImplementation(async () =>
        Response.json(
          {
            error: {
              message: `Incorrect API key provided: ${spaced} (${zeroWidth})`,
              type: swapped,
              code: reversed,
            },
          },
          { status: 401, headers: { 'x-request-id': reversed } },
        ),
      );
      const logged: string[] = [];
      for (const level of ['log', 'info', 'warn', 'error'] as const) {
        vi.spyOn(console, level).mockImplementation((...args: unknown[]) => {
          logged.push(args.map(String).join(' '));
        });
      }
      const { res, settled } = await callWithCatalog(
        spelledCatalog(provider),
        path,
        {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${key}` },
          body: JSON.stringify(request),
        },
        { OPENAI_API_KEY: apiKey },
      );
      await settled();
      expect(res.status).toBeGreaterThanOrEqual(400);
      const body = await res.text();
      expect(body).not.toContain('Incorrect API key provided');
      expect(body).toContain('The provider rejected the operator');
      expect(keyFragmentsIn(body, apiKey), body).toEqual([]);
      for (const line of logged) expect(keyFragmentsIn(line, apiKey), line).toEqual([]);
    });
  }
});

describe('a provider error that echoes the instruction lower-cased or in pieces', () => {
  // Pieces shorter than any window a matcher could use, and the whole instruction in lower case: an
  // error's message is built from allow-listed parts only, so neither reaches any body or stream.
  const instruction =
    'Confidential: approve refunds only for orders under 40 euros and never mention the Harrow account.';
  const pieces = (text: string) => text.match(/.{1,10}/g) ?? [];
  const echoOf = (wire: string) => {
    const lower = instruction.toLowerCase();
    return `Rejected: ${lower} | parts: ${pieces(instruction).join(' ~ ')} | sent: ${wire.toLowerCase()}`;
  };
  // Every 10-character piece of the instruction, and its lower-cased spelling, as a caller could find it.
  const needles = [
    ...new Set(
      [...pieces(instruction), ...pieces(instruction.toLowerCase())].filter((p) => p.trim().length >= 6),
    ),
  ];
  const echoCatalog: Catalog = {
    providers: [{ id: 'echo', kind: 'openai', apiKeyEnv: 'OPENAI_API_KEY' }],
    models: [simModel('gpt-lower', { provider: 'echo', simulate: undefined })],
  };
  const paths = [
    ['/v1/reason', { task: 'refunds', instructions: instruction, modelPolicy: { allowFallback: false } }, {}],
    [
      '/v1/reason',
      { task: 'refunds', instructions: instruction, modelPolicy: { allowFallback: false } },
      { Accept: 'text/event-stream' },
    ],
    [
      '/openai/v1/chat/completions',
      {
        model: 'echo/gpt-lower',
        messages: [
          { role: 'system', content: instruction },
          { role: 'user', content: 'Refund order 7?' },
        ],
      },
      {},
    ],
    [
      '/openai/v1/chat/completions',
      {
        model: 'echo/gpt-lower',
        stream: true,
        messages: [
          { role: 'system', content: instruction },
          { role: 'user', content: 'Refund order 7?' },
        ],
      },
      {},
    ],
  ] as const;

  for (const [path, request, headers] of paths) {
    const framing = 'Accept' in headers || 'stream' in request ? 'stream' : 'JSON';
    it(`reaches no ${framing} body of ${path}`, async () => {
      const { key } = await createKey('lower-echo');
      vi.spyOn(globalThis, 'fetch').mockImplementation(async (_input, init) =>
        Response.json(
          { error: { message: echoOf(String(init?.body)), type: 'invalid_request_error', code: null } },
          { status: 400 },
        ),
      );
      const { res, settled } = await callWithCatalog(
        echoCatalog,
        path,
        {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${key}`, ...headers },
          body: JSON.stringify(request),
        },
        { OPENAI_API_KEY: 'sk-echo-0123456789abcdef' },
      );
      const body = await res.text();
      await settled();
      expect(body).toContain('invalid_request_error');
      const lower = body.toLowerCase();
      const found = needles.filter((needle) => lower.includes(needle.toLowerCase()));
      expect(found, body).toEqual([]);
    });
  }
});
