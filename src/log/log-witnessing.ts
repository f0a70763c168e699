import { readTextUpTo } from '../encoding/read-text-up-to';
import { formatAddCheckpoint } from './add-checkpoint-body';
import { readCosignatures } from './cosignature';
import { addSignatureLines } from './signed-note';
import type { ConfiguredWitness } from './witness-config';

// The log's side of c2sp.org/tlog-witness: a witnessing round pushes the latest signed checkpoint to
// every configured witness with a consistency proof from the size that witness last cosigned, keeps
// each cosignature that verifies, and records the checkpoint with all its cosignatures. A witness
// answering 409 names the size it holds; the round retries once from there.

export interface WitnessSource {
  /** The latest signed checkpoint. */
  latest(): { size: number; note: string };
  /** RFC 6962 consistency proof between two sizes of the tree, 0 < from <= to. */
  consistency(from: number, to: number): Uint8Array[];
}

export interface WitnessOutcome {
  name: string;
  ok: boolean;
  detail: string;
}

export interface WitnessRound {
  size: number;
  outcomes: WitnessOutcome[];
  milliseconds: number;
}

const PUSH_TIMEOUT_MS = 10_000;
/** The most of a witness's answer that is read: a cosignature line is under 200 bytes. */
export const MAX_ANSWER_BYTES = 16 * 1024;

export class LogWitnessing {
  private cosigned: { size: number; note: string; count: number } | undefined;

  constructor(
    private readonly sql: SqlStorage,
    readonly witnesses: readonly ConfiguredWitness[],
    private readonly send: typeof fetch = (input, init) => fetch(input, init),
  ) {
    sql.exec('CREATE TABLE IF NOT EXISTS log_witness_heads (name TEXT PRIMARY KEY, size INTEGER NOT NULL)');
    sql.exec(
      'CREATE TABLE IF NOT EXISTS log_cosigned (size INTEGER PRIMARY KEY, note TEXT NOT NULL, count INTEGER NOT NULL)',
    );
    this.cosigned = sql
      .exec<{ size: number; note: string; count: number }>(
        'SELECT size, note, count FROM log_cosigned ORDER BY size DESC LIMIT 1',
      )
      .toArray()[0];
  }

  /** The latest checkpoint with at least `quorum` cosignatures, with them; null when there is none. */
  latestCosigned(quorum: number): { size: number; note: string } | null {
    const latest = this.cosigned;
    if (latest !== undefined && latest.count >= quorum) return { size: latest.size, note: latest.note };
    const row = this.sql
      .exec<{ size: number; note: string }>(
        'SELECT size, note FROM log_cosigned WHERE count >= ? ORDER BY size DESC LIMIT 1',
        quorum,
      )
      .toArray()[0];
    return row ?? null;
  }

  /** The checkpoint of `size` with the cosignatures it has, or undefined when it has none. */
  cosignedAt(size: number): string | undefined {
    if (this.cosigned?.size === size) return this.cosigned.note;
    return this.sql.exec<{ note: string }>('SELECT note FROM log_cosigned WHERE size = ?', size).toArray()[0]
      ?.note;
  }

  private heldBy(name: string): number {
    return (
      this.sql.exec<{ size: number }>('SELECT size FROM log_witness_heads WHERE name = ?', name).toArray()[0]
        ?.size ?? 0
    );
  }

  /** Pushes the source's latest checkpoint to every witness that has not cosigned it yet. */
  async round(source: WitnessSource): Promise<WitnessRound> {
    const started = Date.now();
    const latest = source.latest();
    const already = this.cosignedAt(latest.size) ?? latest.note;
    const pending = [];
    for (const witness of this.witnesses) {
      const signed = await readCosignatures(already, [witness.cosigner]);
      if (signed.ok && signed.value.cosignatures.length > 0) continue;
      pending.push(witness);
    }
    const results = await Promise.all(pending.map((w) => this.push(w, latest, source)));
    const lines = results.flatMap((r) => (r.line === undefined ? [] : [r.line]));
    if (lines.length > 0) await this.record(latest.size, addSignatureLines(already, lines));
    return {
      size: latest.size,
      outcomes: results.map(({ outcome }) => outcome),
      milliseconds: Date.now() - started,
    };
  }

  private async record(size: number, note: string): Promise<void> {
    const read = await readCosignatures(
      note,
      this.witnesses.map((w) => w.cosigner),
    );
    const count = read.ok ? read.value.cosignatures.length : 0;
    this.sql.exec(
      'INSERT INTO log_cosigned (size, note, count) VALUES (?, ?, ?) ON CONFLICT (size) DO UPDATE SET note = excluded.note, count = excluded.count',
      size,
      note,
      count,
    );
    // An older checkpoint with no more cosignatures than this one is never the answer to any quorum
    // again, so the table keeps at most one row per cosignature count.
    this.sql.exec('DELETE FROM log_cosigned WHERE size < ? AND count <= ?', size, count);
    if (this.cosigned === undefined || size >= this.cosigned.size) this.cosigned = { size, note, count };
  }

  private async push(
    witness: ConfiguredWitness,
    latest: { size: number; note: string },
    source: WitnessSource,
  ): Promise<{ outcome: WitnessOutcome; line?: string }> {
    const name = witness.cosigner.name;
    const failed = (detail: string) => ({ outcome: { name, ok: false, detail } });
    let held = this.heldBy(name);
    for (let attempt = 0; attempt < 2; attempt++) {
      if (held > latest.size) {
        return failed(
          `holds size ${held}, larger than this log's ${latest.size}: it has seen another history`,
        );
      }
      const proof = held === 0 || held === latest.size ? [] : source.consistency(held, latest.size);
      let res: Response;
      let text: string;
      try {
        // A witness is someone else's server: it may not send the log's checkpoint on to another host,
        // nor keep it reading an answer without end.
        res = await this.send(`${witness.url}/add-checkpoint`, {
          method: 'POST',
          body: formatAddCheckpoint({ oldSize: held, proof, checkpoint: latest.note }),
          signal: AbortSignal.timeout(PUSH_TIMEOUT_MS),
          redirect: 'manual',
        });
        if (res.status >= 300 && res.status < 400) {
          res.body?.cancel().catch(() => {});
          return failed(`answered ${res.status}, a redirect, which is not followed`);
        }
        const answer =
          res.body === null ? { text: '', complete: true } : await readTextUpTo(res.body, MAX_ANSWER_BYTES);
        if (!answer.complete)
          return failed(`answered ${res.status} with more than ${MAX_ANSWER_BYTES} bytes`);
        text = answer.text;
      } catch (error) {
        return failed(
          `could not reach ${witness.url}: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
      if (res.status === 409 && res.headers.get('content-type')?.startsWith('text/x.tlog.size')) {
        const size = /^(0|[1-9][0-9]*)\n$/.exec(text)?.[1];
        if (size === undefined) return failed('answered 409 without a size');
        held = Number(size);
        continue;
      }
      if (res.status !== 200) return failed(`answered ${res.status}: ${text.trim().slice(0, 200)}`);
      let line: string | undefined;
      for (const candidate of text.split('\n').filter((l) => l.startsWith(`\u2014 ${name} `))) {
        const read = await readCosignatures(`${latest.note}${candidate}\n`, [witness.cosigner]);
        if (read.ok && read.value.cosignatures.length > 0) line = `${candidate}\n`;
      }
      if (line === undefined) return failed('answered no cosignature by its key that verifies');
      this.sql.exec(
        'INSERT INTO log_witness_heads (name, size) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET size = excluded.size',
        name,
        latest.size,
      );
      return { outcome: { name, ok: true, detail: `cosigned size ${latest.size}` }, line };
    }
    return failed(`its size kept moving (now ${held})`);
  }
}
