import { describe, expect, it } from 'vitest';
import { adapters } from '../../src/providers/registry';
import { callOptions, trustedText, trustRequest, untrustedText } from './fake-fetch';

// Every adapter with a wire body: the trusted text appears once, in the provider's system channel;
// the untrusted text never appears there.
const systemChannel: Record<string, (body: Record<string, unknown>) => unknown> = {
  sim: (body) => (body.messages as { role: string }[]).filter((m) => m.role === 'system'),
  openai: (body) => (body.messages as { role: string }[]).filter((m) => m.role === 'system'),
  'workers-ai': (body) => (body.messages as { role: string }[]).filter((m) => m.role === 'system'),
  anthropic: (body) => body.system,
  gemini: (body) => body.systemInstruction,
};

describe('trust separation across adapters', () => {
  const wired = Object.values(adapters).filter((adapter) => adapter.toWireBody !== undefined);

  it('covers every adapter that has a wire format', () => {
    expect(wired.map((adapter) => adapter.kind).sort()).toEqual(Object.keys(systemChannel).sort());
  });

  it.each(wired.map((adapter) => [adapter.kind, adapter] as const))(
    '%s keeps trusted text in the system channel and untrusted text out of it',
    (kind, adapter) => {
      const body = adapter.toWireBody?.(trustRequest, callOptions(fetch)) as Record<string, unknown>;
      const system = JSON.stringify(systemChannel[kind]?.(body));
      const all = JSON.stringify(body);
      expect(system).toContain(trustedText);
      expect(system).not.toContain(untrustedText);
      expect(all.split(trustedText)).toHaveLength(2);
      expect(all.split(untrustedText)).toHaveLength(2);
    },
  );
});
