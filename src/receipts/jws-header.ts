import { encodeBase64Url } from '../encoding/base64';
import { utf8 } from '../encoding/utf8';
import type { Ed25519SigningKey } from '../signing/keys';
import { canonicalJson } from './jcs';
import { JWS_ALG } from './verify-compact-jws';

// base64url(JCS(protected header)), made once per key id and typ: the header is those two and the fixed
// alg, so receipts and capability tokens share one cache, keyed by what the header is made of.
const HEADERS = new Map<string, string>();

export function protectedHeaderOf(key: Ed25519SigningKey, typ: string): string {
  const id = `${typ}\n${key.kid}`;
  let header = HEADERS.get(id);
  if (header === undefined) {
    header = encodeBase64Url(utf8(canonicalJson({ alg: JWS_ALG, kid: key.kid, typ })));
    HEADERS.set(id, header);
  }
  return header;
}
