import type { Catalog } from '../../../src/policy/catalog';
import { callWithCatalog } from '../../helpers/with-catalog';

// Calls to the OpenAI door with a catalog of the test's own, and readers for its SSE streams.

export function doorCall(catalog: Catalog, key: string, path: string, body: unknown) {
  return callWithCatalog(catalog, `/openai/v1${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${key}` },
    body: JSON.stringify(body),
  });
}

export interface Frame {
  event?: string;
  data: string;
  json?: Record<string, unknown>;
}

/** The SSE frames of a body, each with its `event:` line (if any) and its data parsed when it is JSON. */
export async function framesOf(res: Response): Promise<Frame[]> {
  const text = await res.text();
  return text
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const lines = block.split('\n');
      const event = lines.find((line) => line.startsWith('event: '))?.slice(7);
      const data = lines
        .filter((line) => line.startsWith('data: '))
        .map((line) => line.slice(6))
        .join('\n');
      const frame: Frame = { data };
      if (event !== undefined) frame.event = event;
      if (data !== '[DONE]') frame.json = JSON.parse(data) as Record<string, unknown>;
      return frame;
    });
}
