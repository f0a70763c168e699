import { sha256 } from '@noble/hashes/sha2.js';
import { type ReasonRequest, reasonRequestSchema } from '../../src/contracts/reason-request';
import type { UnsignedResponse } from '../../src/contracts/reason-response';
import { utf8 } from '../../src/encoding/utf8';

// The fixed inputs of the receipt test vectors (docs/receipt-format.md): names, times, key seeds, and
// the requests and answers the receipts are issued for. Nothing here is random, so the vectors come out
// the same bytes on every run.

export const ISSUER = 'https://valve.example';
export const LOG_ORIGIN = 'valve.example/log/0';
export const TENANT = 'acme';
/** 2026-01-01T00:00:00.000Z; each receipt is issued a second after the one before. */
export const FIRST_IAT = 1767225600000;

/** A 32-byte Ed25519 seed (RFC 8032 private key) for each named test key: SHA-256 of a fixed label. */
export function seedOf(name: string): Uint8Array {
  return sha256(utf8(`valve receipt test vectors: ${name}`));
}

export const KEY_NAMES = {
  receipt: 'receipt key',
  log: 'log key',
  unknownReceipt: 'a receipt key no trust root lists',
  unknownLog: 'a log key no trust root lists',
} as const;

/** The caller's salts: 43 or more base64url characters, used as sent (their UTF-8 bytes). */
export const SALTS = {
  main: 'dmVjdG9yLXNhbHQtbWFpbi12ZWN0b3Itc2FsdC1tYWluLXY',
  v1: 'dmVjdG9yLXNhbHQtdjEtdmVjdG9yLXNhbHQtdjEtdmVjdG9y',
  filler: 'dmVjdG9yLXNhbHQtZmlsbGVyLXZlY3Rvci1zYWx0LWZpbGxl',
  /** Well-formed, and not the salt the receipt was committed under. */
  wrong: 'd3Jvbmctc2FsdC13cm9uZy1zYWx0LXdyb25nLXNhbHQtd3Jv',
} as const;

export const RIDS = {
  filler0: '019b7794-a400-7000-8000-000000000000',
  v1: '019b7794-a7e8-7000-8000-000000000001',
  main: '019b7794-abd0-7000-8000-000000000002',
  filler3: '019b7794-afb8-7000-8000-000000000003',
  filler4: '019b7794-b3a0-7000-8000-000000000004',
  rewritten: '019b7794-a7e8-7000-8000-0000000000f1',
} as const;

/**
 * The request most vectors disclose: three context documents (one is opened alone), two turns, a
 * tool, generation settings (committed inside `req.modelPolicy`), non-ASCII text and a line break.
 */
export const mainRequest: ReasonRequest = reasonRequestSchema.parse({
  task: 'compare-quotes',
  instructions: 'Say which quote is cheaper, as JSON.',
  context: [
    { label: 'quote A', trust: 'untrusted', privacy: 'internal', content: 'Fifteen dollars.' },
    {
      label: 'quote B',
      trust: 'untrusted',
      privacy: 'confidential',
      content: 'Twelve dollars.\nValid 30 days.',
    },
    { label: 'policy', trust: 'trusted', privacy: 'internal', content: { currency: 'USD', maxQuote: 20 } },
  ],
  conversation: [
    { role: 'user', content: 'Café order for the Zürich office (€ accepted).' },
    { role: 'assistant', content: 'Understood.' },
  ],
  tools: [
    {
      name: 'lookup_vendor',
      description: 'Finds a vendor by name.',
      inputSchema: { type: 'object', properties: { name: { type: 'string' } } },
      annotations: { readOnly: true },
    },
  ],
  toolChoice: 'auto',
  sampling: { temperature: 0.2, seed: 7 },
  output: { format: 'json', schema: { type: 'object', required: ['cheaper'] } },
  modelPolicy: { prefer: 'cost', maxCostUsd: 0.05 },
  receiptId: RIDS.main,
  receiptSalt: SALTS.main,
});

export const mainResponse: UnsignedResponse = {
  receiptId: RIDS.main,
  task: 'compare-quotes',
  output: { format: 'json', value: { cheaper: 'B', reason: 'Twelve dollars is less than fifteen.' } },
  toolCalls: [],
  finishReason: 'stop',
  model: { provider: 'openai', model: 'gpt-4o-mini', region: 'us' },
  usage: { inputTokens: 412, outputTokens: 23, reasoningTokens: 0, cacheReadTokens: 0 },
  costUsd: 0.0000756,
  latencyMs: 840,
  decision: {
    prefer: 'cost',
    budget: { maxCostUsd: 0.05, spentUsd: 0.0000756 },
    plan: [
      { provider: 'openai', model: 'gpt-4o-mini', estCostUsd: 0.00009, estLatencyMs: 900 },
      { provider: 'anthropic', model: 'claude-haiku-4-5', estCostUsd: 0.0005, estLatencyMs: 1100 },
    ],
    excluded: [
      { provider: 'gemini', model: 'gemini-2.5-pro', reason: 'cost', detail: 'worst case above maxCostUsd' },
    ],
    attempts: [
      {
        provider: 'openai',
        model: 'gpt-4o-mini',
        outcome: 'ok',
        latencyMs: 812,
        costUsd: 0.0000756,
        usage: { inputTokens: 412, outputTokens: 23, reasoningTokens: 0, cacheReadTokens: 0 },
        retry: 0,
        maxTokens: 1024,
      },
    ],
  },
  warnings: [],
};

/** The request of the v1 receipt (Valve issued v1 before v2; v1 receipts keep verifying). */
export const v1Request: ReasonRequest = reasonRequestSchema.parse({
  task: 'summarize',
  instructions: 'Summarize the ticket in one sentence.',
  context: [{ label: 'ticket', trust: 'untrusted', privacy: 'internal', content: 'The printer is on fire.' }],
  receiptId: RIDS.v1,
  receiptSalt: SALTS.v1,
});

export function v1Response(text: string): UnsignedResponse {
  return {
    receiptId: RIDS.v1,
    task: 'summarize',
    output: { format: 'text', text },
    toolCalls: [],
    finishReason: 'stop',
    model: { provider: 'anthropic', model: 'claude-haiku-4-5', region: 'eu' },
    usage: { inputTokens: 96, outputTokens: 11, reasoningTokens: 0, cacheReadTokens: 0 },
    costUsd: 4.2e-7,
    latencyMs: 505,
    decision: {
      prefer: 'quality',
      plan: [{ provider: 'anthropic', model: 'claude-haiku-4-5', estCostUsd: 5e-7, estLatencyMs: 600 }],
      excluded: [],
      attempts: [
        { provider: 'anthropic', model: 'claude-haiku-4-5', outcome: 'ok', latencyMs: 490, costUsd: 4.2e-7 },
      ],
    },
    warnings: [],
  };
}

/** The other receipts of the log, so that proofs have paths and the log has a history to extend. */
export function fillerRequest(rid: string, n: number): ReasonRequest {
  return reasonRequestSchema.parse({
    task: 'classify',
    instructions: `Classify ticket ${n} as urgent or routine.`,
    receiptId: rid,
    receiptSalt: SALTS.filler,
  });
}

export function fillerResponse(rid: string): UnsignedResponse {
  return {
    receiptId: rid,
    task: 'classify',
    output: { format: 'text', text: 'routine' },
    toolCalls: [],
    finishReason: 'stop',
    model: { provider: 'openai', model: 'gpt-4o-mini', region: 'us' },
    usage: { inputTokens: 40, outputTokens: 1, reasoningTokens: 0, cacheReadTokens: 0 },
    costUsd: 0.0000066,
    latencyMs: 300,
    decision: {
      prefer: 'quality',
      plan: [{ provider: 'openai', model: 'gpt-4o-mini', estCostUsd: 0.00001, estLatencyMs: 400 }],
      excluded: [],
      attempts: [
        { provider: 'openai', model: 'gpt-4o-mini', outcome: 'ok', latencyMs: 290, costUsd: 0.0000066 },
      ],
    },
    warnings: [],
  };
}
