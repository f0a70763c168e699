import { describe, expect, it } from 'vitest';
import { reasonRequestSchema } from '../../src/contracts/reason-request';
import { type ReasonResponse, reasonResponseSchema } from '../../src/contracts/reason-response';
import type { VerifyReport } from '../../src/contracts/receipt-bodies';
import { buildDisclosure } from '../../src/receipts/disclose';
import { createKey, postJson, reason } from '../helpers/api';
import { checkStreamOrder, parseSse } from '../helpers/check-stream-order';

const salt = 'c3RyZWFtc3RyZWFtc3RyZWFtc3RyZWFtc3RyZWFtc3RyZWFt';

function requestWith(receiptId: string) {
  return reasonRequestSchema.parse({
    task: 'summarize',
    instructions: 'Summarize the ticket in one sentence.',
    context: [{ trust: 'untrusted', privacy: 'internal', content: 'The printer is on fire.' }],
    receiptId,
    receiptSalt: salt,
  });
}

async function streamed(key: string, body: unknown) {
  const res = await reason(key, body, { Accept: 'text/event-stream' });
  expect(res.status).toBe(200);
  expect(res.headers.get('Content-Type')).toContain('text/event-stream');
  const events = parseSse(await res.text());
  expect(checkStreamOrder(events)).toEqual([]);
  return { res, events };
}

describe('receipts of streamed answers, through the route', () => {
  it('commits the terminal event’s receipt to exactly the text that was streamed, and it verifies', async () => {
    const { key } = await createKey('streamer');
    const request = requestWith('5b8f0c1e-3a2d-4e6f-8a9b-0c1d2e3f4a5b');
    const { events } = await streamed(key, request);
    const text = events
      .filter((e) => e.type === 'response.output_text.delta')
      .map((e) => e.delta as string)
      .join('');
    const response = reasonResponseSchema.parse(events[events.length - 1]?.response) as ReasonResponse;
    expect(response.output).toEqual({ format: 'text', text });
    expect(text.length).toBeGreaterThan(0);
    const report = (await (
      await postJson('/v1/receipts/verify', await buildDisclosure({ request, response, salt }))
    ).json()) as VerifyReport;
    expect(report.checks.filter((c) => !c.ok)).toEqual([]);
    expect(report.ok).toBe(true);
  });

  it('replays a repeated receiptId as the same answer and receipt, streamed', async () => {
    const { key } = await createKey('streamer-replay');
    const request = requestWith('6c9f1d2e-4b3e-4f70-9bac-1d2e3f4a5b6c');
    const first = await streamed(key, request);
    const again = await streamed(key, request);
    expect(again.res.headers.get('Idempotent-Replayed')).toBe('true');
    const last = (events: { type: string; [key: string]: unknown }[]) => events[events.length - 1]?.response;
    expect(last(again.events)).toEqual(last(first.events));
  });
});
