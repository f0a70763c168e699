import { type Checkpoint, signCheckpoint } from './checkpoint';
import { createNoteSigner, type NoteSigner } from './signed-note';

// The log's signing key as a note signer, made once per object's life from LOG_SIGNING_KEY under the
// object's origin; a key that fails to import is tried again by the next batch, not kept as a failure.

export class LogSigning {
  private signer: Promise<NoteSigner> | undefined;

  /** `origin` throws when the object's origin is not known, so nothing is signed under a guess. */
  constructor(
    private readonly origin: () => string,
    private readonly env: { LOG_SIGNING_KEY: string },
  ) {}

  /** The signer, made on first use. */
  signerOf(): Promise<NoteSigner> {
    this.signer ??= createNoteSigner(this.origin(), this.env.LOG_SIGNING_KEY);
    this.signer.catch(() => {
      this.signer = undefined;
    });
    return this.signer;
  }

  /** The checkpoint of `size` leaves with `root`, signed under the object's origin. */
  async sign(size: number, root: Uint8Array, signer?: NoteSigner): Promise<string> {
    const checkpoint: Checkpoint = { origin: this.origin(), size, root, extensions: [] };
    return signCheckpoint(checkpoint, signer ?? (await this.signerOf()));
  }
}
