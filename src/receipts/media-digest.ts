import { sha256 } from '@noble/hashes/sha2.js';
import type { MediaPart } from '../contracts/media-part';
import { base64Bytes } from '../encoding/base64';
import { bytesToHex } from '../encoding/hex';

// How a receipt commits a media part (docs/receipt-format.md "Media parts"): by the SHA-256 of its
// bytes, never the bytes themselves, inside its item's commitment. A URL or a provider's file id is
// committed as it was sent, its `kind` saying which it is. An auditor shown the file checks it with
// `sha256sum`; a disclosure bundle carries the digest, not megabytes of base64.

/** A media part as committed: `source` `{ kind: "sha256", sha256, bytes }` in place of its base64. */
export type CommittedMediaPart = Omit<MediaPart, 'source'> & {
  source:
    | Exclude<MediaPart['source'], { kind: 'base64' }>
    | { kind: 'sha256'; sha256: string; bytes: number };
};

export function committedMediaPart(part: MediaPart): CommittedMediaPart {
  if (part.source.kind !== 'base64') return part as CommittedMediaPart;
  const bytes = base64Bytes(part.source.data);
  return { ...part, source: { kind: 'sha256', sha256: bytesToHex(sha256(bytes)), bytes: bytes.length } };
}

/** An item or turn as committed: its media parts by digest; the same object when it has none. */
export function withMediaDigests<T extends { media?: MediaPart[] }>(
  value: T,
): T | (Omit<T, 'media'> & { media: CommittedMediaPart[] }) {
  if (value.media === undefined) return value;
  return { ...value, media: value.media.map(committedMediaPart) };
}
