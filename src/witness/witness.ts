import { decodeBase64, encodeBase64 } from '../encoding/base64';
import { timingSafeEqual } from '../encoding/bytes';
import { parseAddCheckpoint } from '../log/add-checkpoint-body';
import { parseCheckpoint } from '../log/checkpoint';
import { type CosignerSigner, cosignCheckpoint } from '../log/cosignature';
import { checkConsistencyProof } from '../log/merkle';
import { type NoteVerifier, openNote, parseVerifierKey } from '../log/signed-note';

// A C2SP tlog-witness (c2sp.org/tlog-witness): for each log it is configured with, it keeps the latest
// checkpoint it cosigned, and cosigns a new one only when a consistency proof shows it extends that
// one. So it never cosigns two different trees of one size, nor a tree that rewrote one it cosigned:
// a log that shows different histories to different people cannot have both cosigned.

/** What the witness holds for one log: the latest checkpoint it cosigned. */
export interface WitnessedHead {
  size: number;
  /** The root hash, base64. */
  root: string;
  /** The checkpoint as submitted, with its cosignature. */
  checkpoint: string;
}

/** Where a witness keeps its heads; `save` must be durable before it resolves. */
export interface WitnessStore {
  head(origin: string): WitnessedHead | undefined | Promise<WitnessedHead | undefined>;
  save(origin: string, head: WitnessedHead): void | Promise<void>;
  /** A signed checkpoint the witness refused: evidence that the log may have misbehaved. */
  refused?(origin: string, checkpoint: string, reason: string): void | Promise<void>;
}

export interface WitnessAnswer {
  status: 200 | 400 | 403 | 404 | 409 | 422;
  contentType: string;
  body: string;
}

const TEXT = 'text/plain; charset=utf-8';
const answer = (status: WitnessAnswer['status'], body: string, contentType = TEXT): WitnessAnswer => ({
  status,
  contentType,
  body: body.endsWith('\n') ? body : `${body}\n`,
});

export class Witness {
  private readonly logs = new Map<string, NoteVerifier>();
  /** One submission per log at a time: checking the old size and saving the new head are one step. */
  private readonly busy = new Map<string, Promise<unknown>>();

  /** `logs` are the logs' verifier keys (type 0x01), whose key names are their origins. */
  constructor(
    readonly signer: CosignerSigner,
    logs: readonly string[],
    private readonly store: WitnessStore,
    private readonly now: () => number = Date.now,
  ) {
    for (const vkey of logs) {
      const parsed = parseVerifierKey(vkey);
      if (!parsed.ok) throw new TypeError(`log key ${vkey}: ${parsed.reason}`);
      this.logs.set(parsed.value.name, parsed.value);
    }
  }

  origins(): string[] {
    return [...this.logs.keys()];
  }

  /** POST <prefix>/add-checkpoint: the answer the spec requires for `body`. */
  async addCheckpoint(body: string): Promise<WitnessAnswer> {
    const request = parseAddCheckpoint(body);
    if (!request.ok) return answer(400, request.reason);
    const { oldSize, proof, checkpoint: note } = request.value;
    const origin = note.split('\n', 1)[0] ?? '';
    const log = this.logs.get(origin);
    if (log === undefined) return answer(404, `this witness does not witness ${JSON.stringify(origin)}`);
    const opened = await openNote(note, [log]);
    if (!opened.ok) return answer(403, `the checkpoint is not signed by the log's key: ${opened.reason}`);
    const checkpoint = parseCheckpoint(opened.value.text);
    if (!checkpoint.ok) return answer(400, checkpoint.reason);
    const { size, root } = checkpoint.value;
    if (oldSize > size) return answer(400, `old size ${oldSize} is larger than the checkpoint's ${size}`);
    if (oldSize === 0 && proof.length > 0) return answer(400, 'a proof from size 0 must be empty');
    const previous = this.busy.get(origin) ?? Promise.resolve();
    const turn = previous.then(async () => {
      const head = await this.store.head(origin);
      const held = head?.size ?? 0;
      if (oldSize !== held) return answer(409, String(held), 'text/x.tlog.size');
      const heldRoot = head === undefined ? null : decodeBase64(head.root);
      if (heldRoot !== null && oldSize > 0) {
        const finding = checkConsistencyProof(oldSize, size, heldRoot, root, proof);
        if (finding.kind !== 'consistent') {
          const reason =
            oldSize === size
              ? `a different tree of size ${size} than the one this witness cosigned`
              : `the consistency proof from ${oldSize} does not verify`;
          await this.store.refused?.(origin, note, reason);
          return answer(oldSize === size ? 409 : 422, reason);
        }
      }
      if (heldRoot !== null && oldSize === 0 && size === 0 && !timingSafeEqual(heldRoot, root)) {
        await this.store.refused?.(origin, note, 'a different empty tree');
        return answer(409, 'a different tree of size 0 than the one this witness cosigned');
      }
      const line = await cosignCheckpoint(opened.value.text, this.signer, Math.floor(this.now() / 1000));
      await this.store.save(origin, { size, root: encodeBase64(root), checkpoint: note + line });
      return answer(200, line);
    });
    this.busy.set(origin, turn);
    const forget = () => {
      if (this.busy.get(origin) === turn) this.busy.delete(origin);
    };
    turn.then(forget, forget);
    return turn;
  }
}
