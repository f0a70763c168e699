import { describe, expect, it } from 'vitest';
import { pkcs8Ed25519 } from '../../../bench/lib/log-bench.js';
import { witnessRoundsMarkdown } from '../../../bench/lib/report.js';
import { logVerifierKey } from '../../../bench/witness-round.js';
import { createNoteSigner, formatVerifierKey } from '../../../src/log/signed-note';

describe('bench/witness-round.js', () => {
  it("computes the log's verifier key as the log itself does (signed-note.ts)", async () => {
    const pkcs8 = pkcs8Ed25519();
    const origin = 'bench.valve.local/log/w1';
    const signer = await createNoteSigner(origin, pkcs8);
    expect(logVerifierKey(origin, pkcs8)).toBe(formatVerifierKey(origin, signer.publicKey));
  });

  it('reports a failed run as failed, with its error', () => {
    const lines = witnessRoundsMarkdown({
      file: 'bench/witness-round.js',
      ok: false,
      error: 'w1: answered 409',
    });
    expect(lines.join('\n')).toContain('failed — w1: answered 409');
  });
});
