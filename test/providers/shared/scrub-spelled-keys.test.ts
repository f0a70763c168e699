import { describe, expect, it } from 'vitest';
import type { ModelAdapter } from '../../../src/model/model-adapter';
import type { ModelError } from '../../../src/model/model-error';
import { anthropicAdapter } from '../../../src/providers/anthropic/anthropic-adapter';
import { geminiAdapter } from '../../../src/providers/gemini/gemini-adapter';
import { openaiAdapter } from '../../../src/providers/openai/openai-adapter';
import { keyFragmentsIn } from '../../helpers/key-fragments';
import {
  callOptions,
  drain,
  fakeFetch,
  jsonResponse,
  rejection,
  sseResponse,
  trustRequest,
} from '../fake-fetch';

// A provider (or anything between it and Valve) that echoes the key in a spelling no exact search
// finds: spaced out, dotted, split by zero-width characters, case swapped, reversed, full-width, in
// chunks, between letters of another alphabet. Whatever the spelling, what Valve passes on (the
// message, the provider code, the request id) holds no 8 characters of the key in a row once an
// attacker strips everything but letters and digits, in either direction, in any case.

const key = 'sk-proj-7Qm2Zt9LwX4vRb8NcK3pJy6HdF1sGa5E';

const swapCase = (text: string) =>
  [...text].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('');
const fullWidth = (text: string) =>
  [...text]
    .map((c) => (/[A-Za-z0-9]/.test(c) ? String.fromCodePoint((c.codePointAt(0) as number) + 0xfee0) : c))
    .join('');
const chunks = (text: string, size: number, separator: string) =>
  (text.match(new RegExp(`.{1,${size}}`, 'g')) ?? []).join(separator);

const spellings: Record<string, string> = {
  spaced: [...key].join(' '),
  dotted: [...key].join('.'),
  dashed: [...key].join(' - '),
  'zero-width': [...key].join('\u200b'),
  'soft hyphens and joiners': [...key].join('\u00ad\u2060'),
  'swapped case': swapCase(key),
  'spaced and swapped case': [...swapCase(key)].join(' '),
  reversed: [...key].reverse().join(''),
  'reversed and spaced': [...key].reverse().join(' '),
  'full-width': fullWidth(key),
  'chunks of three': chunks(key, 3, ' '),
  'chunks of five, slashed': chunks(key, 5, ' / '),
  'between Cyrillic letters': [...key].join('ж'),
  'one per line': [...key].join('\n'),
  'tab and comma': [...key].join(',\t'),
};

const fragmentsIn = (output: string) => keyFragmentsIn(output, key);

/** Every string a caller (or a log) is shown of a ModelError. */
const shown = (error: ModelError | undefined) => JSON.stringify(error ?? null);

describe('the yardstick, keyFragmentsIn', () => {
  it('finds the key in every spelling, so a pass below means the scrubber removed it', () => {
    for (const [name, spelling] of Object.entries(spellings)) {
      expect(fragmentsIn(`Incorrect API key provided: ${spelling}.`).length, name).toBeGreaterThan(20);
    }
    expect(fragmentsIn('Incorrect API key provided. Check your dashboard.')).toEqual([]);
  });
});

const cases: [string, ModelAdapter, (echo: string) => unknown, (echo: string) => string][] = [
  [
    'openai',
    openaiAdapter,
    (echo) => ({ error: { message: `Incorrect API key provided: ${echo}.`, type: echo, code: echo } }),
    (echo) =>
      `data: ${JSON.stringify({ error: { message: `Key ${echo} revoked`, type: echo, code: echo } })}\n\n`,
  ],
  [
    'anthropic',
    anthropicAdapter,
    (echo) => ({ type: 'error', error: { type: echo, message: `invalid x-api-key ${echo}` } }),
    (echo) =>
      `event: error\ndata: ${JSON.stringify({ type: 'error', error: { type: echo, message: `key ${echo} revoked` } })}\n\n`,
  ],
  [
    'gemini',
    geminiAdapter,
    (echo) => ({ error: { code: 400, message: `API key not valid: ${echo}`, status: echo } }),
    (echo) =>
      `data: ${JSON.stringify({ error: { code: 400, message: `API key ${echo} revoked`, status: echo } })}\n\n`,
  ],
];

describe.each(cases)('%s: a provider error that echoes the key', (_name, adapter, errorBody, errorEvent) => {
  for (const [name, spelling] of Object.entries(spellings)) {
    it(`spelled ${name}, in the message, the code and the request id, reaches the caller without it`, async () => {
      // A header value holds no line break: there the key is spelled one per line with spaces instead.
      // A header is ASCII on the wire (workerd warns at a non-ASCII one built in JS): the spellings in
      // other alphabets are left out of it, and requestIdOf's own test covers such a value.
      const header = spelling.replace(/\n/g, ' ');
      const ascii = /^[\x20-\x7e]*$/.test(header);
      const { fetch } = fakeFetch(() =>
        jsonResponse(errorBody(spelling), 401, ascii ? { 'x-request-id': header, 'request-id': header } : {}),
      );
      const error = await rejection(adapter.generate(trustRequest, callOptions(fetch, { apiKey: key })));
      expect(error.status).toBe(401);
      expect(fragmentsIn(shown(error)), shown(error)).toEqual([]);
    });
  }

  for (const [name, spelling] of Object.entries(spellings)) {
    it(`spelled ${name}, in an in-band stream error, reaches the caller without it`, async () => {
      const { fetch } = fakeFetch(() => sseResponse([errorEvent(spelling)]));
      const { error } = await drain(adapter.stream(trustRequest, callOptions(fetch, { apiKey: key })));
      expect(error).toBeDefined();
      expect(fragmentsIn(shown(error)), shown(error)).toEqual([]);
    });
  }
});
