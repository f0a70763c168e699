import { encodeBase64Url } from '../encoding/base64';
import { utf8 } from '../encoding/utf8';
import type { Ed25519SigningKey } from '../signing/keys';
import { canonicalJson } from './jcs';
import { JWS_ALG } from './verify-compact-jws';

// base64url(JCS(protected header)) per signing key and typ, made on the key's first token of that typ:
// receipts and capability tokens differ only in `typ`.
const HEADERS = new WeakMap<Ed25519SigningKey, Map<string, string>>();

export function protectedHeaderOf(key: Ed25519SigningKey, typ: string): string {
  let byTyp = HEADERS.get(key);
  if (byTyp === undefined) {
    byTyp = new Map();
    HEADERS.set(key, byTyp);
  }
  let header = byTyp.get(typ);
  if (header === undefined) {
    header = encodeBase64Url(utf8(canonicalJson({ alg: JWS_ALG, kid: key.kid, typ })));
    byTyp.set(typ, header);
  }
  return header;
}
