// Sample bodies for the contract test: each is run through the zod schema and the JSON Schema twin.

const base = { task: 'summarize', instructions: 'Summarize.' };
const item = { trust: 'untrusted', privacy: 'internal', content: 'hello' };
const tool = { name: 'lookup', inputSchema: { type: 'object' } };
const uuid = '3f0e2a6c-5b1d-4c8e-9a7f-0123456789ab';
const salt = 'A'.repeat(43);
const call = { id: 'call_1', name: 'lookup', arguments: { order: 42 } };
const callTurn = { role: 'assistant', toolCalls: [call] };
const resultTurn = { role: 'tool', toolCallId: 'call_1', content: 'shipped' };
const png = { type: 'image', mimeType: 'image/png', source: { kind: 'base64', data: 'iVBORw0KGgo=' } };
const pdfById = {
  type: 'file',
  mimeType: 'application/pdf',
  source: { kind: 'fileId', fileId: 'file-abc', provider: 'openai' },
};
const byUrl = {
  type: 'image',
  mimeType: 'image/jpeg',
  source: { kind: 'url', url: 'https://example.com/a.jpg' },
};

export const validSamples: unknown[] = [
  base,
  { ...base, context: [{ ...item, media: [png] }] },
  { ...base, context: [{ trust: 'trusted', privacy: 'public', media: [png, pdfById, byUrl] }] },
  { ...base, context: [{ ...item, media: [{ ...pdfById, filename: 'invoice.pdf' }] }] },
  { ...base, conversation: [{ role: 'user', content: 'what is this?', media: [png] }] },
  { ...base, mediaPolicy: { allowUntrusted: false, allowUrls: true } },
  { ...base, instructions: '' },
  { ...base, context: [] },
  { ...base, context: [item] },
  { ...base, context: [{ ...item, label: 'ticket' }] },
  { ...base, context: [{ ...item, trust: 'trusted' }] },
  { ...base, context: [{ ...item, privacy: 'public' }] },
  { ...base, context: [{ ...item, privacy: 'restricted' }] },
  { ...base, context: [{ ...item, content: { a: 1, b: [1, 2] } }] },
  { ...base, context: [{ ...item, content: [1, 'two', { three: 3 }] }] },
  { ...base, context: [{ ...item, content: {} }] },
  {
    ...base,
    conversation: [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'hello' },
    ],
  },
  { ...base, tools: [tool] },
  { ...base, tools: [{ ...tool, description: 'Looks up an order.' }] },
  { ...base, tools: [{ ...tool, annotations: { readOnly: true, idempotent: true, destructive: false } }] },
  { ...base, tools: [{ ...tool, name: 'A-b_9' }] },
  { ...base, tools: [{ ...tool, name: 'x'.repeat(64) }] },
  { ...base, output: { format: 'text' } },
  { ...base, output: { format: 'json' } },
  { ...base, output: { format: 'json', schema: { type: 'object', properties: { a: { type: 'string' } } } } },
  { ...base, modelPolicy: {} },
  { ...base, modelPolicy: { prefer: 'cost' } },
  { ...base, modelPolicy: { prefer: 'speed', allowFallback: false } },
  { ...base, modelPolicy: { pinned: { provider: 'sim', model: 'fast' } } },
  { ...base, modelPolicy: { regions: ['eu', 'us'] } },
  { ...base, modelPolicy: { maxCostUsd: 0 } },
  { ...base, modelPolicy: { maxCostUsd: 0.25, maxLatencyMs: 1, maxOutputTokens: 1 } },
  { ...base, receiptId: uuid },
  { ...base, receiptSalt: salt },
  { ...base, receiptSalt: 'a_-9'.repeat(128) },
  { ...base, receiptId: '00000000-0000-4000-8000-000000000000', receiptSalt: `${salt}-_` },
  {
    ...base,
    context: [item, { ...item, trust: 'trusted', privacy: 'confidential', label: 'kb' }],
    conversation: [{ role: 'user', content: '' }],
    tools: [tool],
    output: { format: 'json', schema: {} },
    modelPolicy: { prefer: 'quality', regions: [], maxOutputTokens: 1_000_000 },
  },
  { ...base, tools: [tool], conversation: [{ role: 'user', content: 'where is 42?' }, callTurn, resultTurn] },
  {
    ...base,
    conversation: [
      { ...callTurn, content: 'Let me look.' },
      { ...resultTurn, name: 'lookup' },
    ],
  },
  { ...base, conversation: [callTurn, { ...resultTurn, content: { status: 'shipped' } }] },
  { ...base, conversation: [callTurn, { ...resultTurn, content: ['a', 1] }] },
  {
    ...base,
    conversation: [
      { role: 'assistant', toolCalls: [call, { ...call, id: 'call_2', arguments: {} }] },
      { ...resultTurn, toolCallId: 'call_2' },
      resultTurn,
      { role: 'assistant', content: 'Both are shipped.' },
      { role: 'user', content: 'thanks' },
    ],
  },
  { ...base, tools: [tool], toolChoice: 'auto' },
  { ...base, toolChoice: 'none' },
  { ...base, tools: [tool], toolChoice: 'required' },
  { ...base, tools: [tool], toolChoice: { name: 'lookup' } },
  { ...base, parallelToolCalls: false },
  { ...base, sampling: {} },
  { ...base, sampling: { temperature: 0, topP: 1, stop: ['END', 'x'.repeat(256)], seed: -2_147_483_648 } },
  { ...base, sampling: { temperature: 2, topP: 0, stop: [], seed: 2_147_483_647 } },
];

export const invalidSamples: unknown[] = [
  { ...base, context: [{ trust: 'untrusted', privacy: 'internal' }] },
  { ...base, context: [{ ...item, media: [] }] },
  { ...base, context: [{ ...item, media: [{ ...png, mimeType: 'image/bmp' }] }] },
  { ...base, context: [{ ...item, media: [{ ...png, type: 'video' }] }] },
  {
    ...base,
    context: [
      { ...item, media: [{ ...png, source: { kind: 'base64', data: 'data:image/png;base64,AAAA' } }] },
    ],
  },
  {
    ...base,
    context: [{ ...item, media: [{ ...byUrl, source: { kind: 'url', url: 'http://example.com/a.jpg' } }] }],
  },
  {
    ...base,
    context: [{ ...item, media: [{ ...pdfById, source: { kind: 'fileId', fileId: 'file-abc' } }] }],
  },
  { ...base, context: [{ ...item, media: [{ ...png, extra: 1 }] }] },
  { ...base, context: [{ ...item, media: [{ ...png, filename: 'a"b' }] }] },
  { ...base, conversation: [{ role: 'assistant', content: 'look', media: [png] }] },
  { ...base, mediaPolicy: { allowUrls: 'yes' } },
  {},
  { task: 'summarize' },
  { instructions: 'x' },
  { ...base, task: '' },
  { ...base, task: 7 },
  { ...base, instructions: null },
  { ...base, extra: true },
  { ...base, Task: 'x' },
  { ...base, context: {} },
  { ...base, context: [{ ...item, trust: 'semi' }] },
  { ...base, context: [{ trust: 'trusted', content: 'x' }] },
  { ...base, context: [{ ...item, privacy: 'secret' }] },
  { ...base, context: [{ ...item, content: 5 }] },
  { ...base, context: [{ ...item, content: null }] },
  { ...base, context: [{ ...item, lable: 'typo' }] },
  { ...base, conversation: [{ role: 'system', content: 'x' }] },
  { ...base, conversation: [{ role: 'user' }] },
  { ...base, conversation: [{ role: 'user', content: 'x', name: 'bob' }] },
  { ...base, tools: [{ name: 'has space', inputSchema: {} }] },
  { ...base, tools: [{ name: 'x'.repeat(65), inputSchema: {} }] },
  { ...base, tools: [{ name: 'lookup' }] },
  { ...base, tools: [{ ...tool, inputSchema: [] }] },
  { ...base, tools: [{ ...tool, annotations: { readonly: true } }] },
  { ...base, output: { format: 'xml' } },
  { ...base, output: { schema: {} } },
  { ...base, output: { format: 'json', schema: 'object' } },
  { ...base, modelPolicy: { prefer: 'fast' } },
  { ...base, modelPolicy: { maxCostUSD: 1 } },
  { ...base, modelPolicy: { maxCostUsd: -1 } },
  { ...base, modelPolicy: { maxLatencyMs: 0 } },
  { ...base, modelPolicy: { maxLatencyMs: 1.5 } },
  { ...base, modelPolicy: { maxOutputTokens: 0 } },
  { ...base, modelPolicy: { pinned: { provider: 'sim' } } },
  { ...base, modelPolicy: { pinned: { provider: 'sim', model: 'fast', region: 'eu' } } },
  { ...base, modelPolicy: { allowFallback: 'no' } },
  { ...base, modelPolicy: { regions: 'eu' } },
  { ...base, receiptId: 'not-a-uuid' },
  { ...base, receiptId: '3F0E2A6C-5B1D-4C8E-9A7F-0123456789AB' },
  { ...base, receiptSalt: 'short' },
  { ...base, receiptSalt: `${'A'.repeat(42)}=` },
  { ...base, receiptSalt: 'A'.repeat(513) },
  { ...base, conversation: [{ role: 'assistant', toolCalls: [] }] },
  { ...base, conversation: [{ role: 'assistant' }] },
  { ...base, conversation: [{ role: 'user', content: 'x', toolCalls: [call] }] },
  { ...base, conversation: [{ role: 'assistant', toolCalls: [{ ...call, id: '' }] }, resultTurn] },
  { ...base, conversation: [{ role: 'assistant', toolCalls: [{ ...call, id: 'x'.repeat(257) }] }] },
  { ...base, conversation: [{ role: 'assistant', toolCalls: [{ ...call, name: 'has space' }] }, resultTurn] },
  { ...base, conversation: [{ role: 'assistant', toolCalls: [{ ...call, arguments: '{}' }] }, resultTurn] },
  {
    ...base,
    conversation: [{ role: 'assistant', toolCalls: [{ id: 'call_1', name: 'lookup' }] }, resultTurn],
  },
  { ...base, conversation: [callTurn, { role: 'tool', content: 'x' }] },
  { ...base, conversation: [callTurn, { ...resultTurn, content: 5 }] },
  { ...base, conversation: [callTurn, { ...resultTurn, trust: 'trusted' }] },
  { ...base, toolChoice: 'any' },
  { ...base, toolChoice: { type: 'function', name: 'lookup' } },
  { ...base, parallelToolCalls: 'yes' },
  { ...base, sampling: { temperature: 2.5 } },
  { ...base, sampling: { topP: -0.1 } },
  { ...base, sampling: { stop: ['a', 'b', 'c', 'd', 'e'] } },
  { ...base, sampling: { stop: [''] } },
  { ...base, sampling: { seed: 1.5 } },
  { ...base, sampling: { seed: 2_147_483_648 } },
  { ...base, sampling: { top_p: 0.5 } },
  [],
  'summarize',
  null,
];

/**
 * Bodies the JSON Schema accepts (it cannot relate items to each other) and zod rejects, with the path
 * of the first issue: tool turns must pair with calls, and a forced tool choice needs its tool.
 */
export const crossItemSamples: [string, unknown, string][] = [
  ['a tool turn that answers no call', { ...base, conversation: [resultTurn] }, '/conversation/0/toolCallId'],
  [
    'a tool turn for another call id',
    { ...base, conversation: [callTurn, resultTurn, { ...resultTurn, toolCallId: 'call_9' }] },
    '/conversation/2/toolCallId',
  ],
  [
    'a tool call never answered',
    { ...base, conversation: [callTurn, { role: 'assistant', content: 'done' }] },
    '/conversation/0/toolCalls/0/id',
  ],
  [
    'a last tool call never answered',
    { ...base, conversation: [callTurn] },
    '/conversation/0/toolCalls/0/id',
  ],
  [
    'a result after a user turn',
    { ...base, conversation: [callTurn, { role: 'user', content: 'hm' }, resultTurn] },
    '/conversation/0/toolCalls/0/id',
  ],
  [
    'a result given twice',
    { ...base, conversation: [callTurn, resultTurn, resultTurn] },
    '/conversation/2/toolCallId',
  ],
  [
    'two calls with one id',
    { ...base, conversation: [callTurn, resultTurn, callTurn, resultTurn] },
    '/conversation/2/toolCalls/0/id',
  ],
  [
    'a result naming another tool',
    { ...base, conversation: [callTurn, { ...resultTurn, name: 'other' }] },
    '/conversation/1/name',
  ],
  [
    'a named toolChoice not in tools',
    { ...base, tools: [tool], toolChoice: { name: 'other' } },
    '/toolChoice/name',
  ],
  ['toolChoice required without tools', { ...base, toolChoice: 'required' }, '/toolChoice'],
];
