import { createHash, createHmac, createPublicKey, hkdfSync, verify } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// docs/receipt-format.md, followed with node:crypto and nothing of Valve's: every byte of the valid
// receipt vectors (commitments, JWS, kid, entry and leaf hashes, inclusion and consistency proofs,
// checkpoint signatures) comes out of the page's own description. If the page or the code changed a
// byte without the other, this fails; it is the proof that someone who never reads src/ can verify.

const dir = join(import.meta.dirname, '../../../test/vectors/receipts');
const text = (vector: string, file: string) => readFileSync(join(dir, vector, file), 'utf8');
// biome-ignore lint/suspicious/noExplicitAny: the vectors are read as plain JSON, checked field by field below.
const json = (vector: string, file: string): any => JSON.parse(text(vector, file));

const utf8 = (s: string) => Buffer.from(s, 'utf8');
const byte = (b: number) => Buffer.from([b]);
const sha256 = (...parts: Buffer[]) => createHash('sha256').update(Buffer.concat(parts)).digest();
const hmac = (key: Buffer, ...parts: Buffer[]) =>
  createHmac('sha256', key).update(Buffer.concat(parts)).digest();
const b64url = (bytes: Buffer) => bytes.toString('base64url');

/** RFC 8785 for I-JSON values: JSON.stringify writes strings and numbers as JCS does; members sorted by UTF-16 code units. */
function jcs(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(jcs).join(',')}]`;
  const record = value as Record<string, unknown>;
  return `{${Object.keys(record)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${jcs(record[k])}`)
    .join(',')}}`;
}

/** The page's table of committed names and values ("What a receipt commits to"). */
// biome-ignore lint/suspicious/noExplicitAny: request and response as JSON.
function committedValues(request: any, response: any, typ: string, tenant: string | null) {
  const generation = Object.fromEntries(
    ['toolChoice', 'parallelToolCalls', 'sampling'].filter((k) => k in request).map((k) => [k, request[k]]),
  );
  const values: Record<string, unknown> = {
    'req.task': request.task ?? null,
    'req.instructions': request.instructions ?? null,
    'req.context': request.context ?? null,
    'req.conversation': request.conversation ?? null,
    'req.tools': request.tools ?? null,
    'req.output': request.output ?? null,
    'req.modelPolicy':
      Object.keys(generation).length > 0
        ? { ...(request.modelPolicy ?? {}), ...generation }
        : (request.modelPolicy ?? null),
    'res.output': response.output,
    'res.toolCalls': response.toolCalls,
    'res.meta': { finishReason: response.finishReason, usage: response.usage, costUsd: response.costUsd },
    'dec.model': response.model,
    'dec.trace': response.decision,
  };
  if (typ === 'valve-receipt/v2') {
    values['req.tenant'] = tenant;
    for (const list of ['context', 'conversation']) {
      (request[list] ?? []).forEach((item: unknown, i: number) => {
        values[`req.${list}[${i}]`] = item;
      });
    }
  }
  return values;
}

function fieldKey(salt: string, rid: string, name: string): Buffer {
  const info = Buffer.concat([
    utf8('valve-receipt/v1/field'),
    byte(0),
    Buffer.from(rid.replace(/-/g, ''), 'hex'),
    utf8(name),
  ]);
  return Buffer.from(hkdfSync('sha256', utf8(salt), utf8('valve-receipt/v1/kdf'), info, 32));
}

const commitment = (key: Buffer, name: string, value: unknown) =>
  hmac(key, utf8('valve-receipt/v1/commit'), byte(0), utf8(name), byte(0), utf8(jcs(value)));

const node = (left: Buffer, right: Buffer) => sha256(byte(1), left, right);

/** RFC 9162 section 2.1.3.2, as the page writes it out. */
function rootFromInclusion(leaf: Buffer, index: number, size: number, path: Buffer[]): Buffer {
  let fn = index;
  let sn = size - 1;
  let r = leaf;
  for (const p of path) {
    if (sn === 0) throw new Error('inclusion proof too long');
    if (fn % 2 === 1 || fn === sn) {
      r = node(p, r);
      while (fn % 2 === 0 && fn !== 0) {
        fn = Math.floor(fn / 2);
        sn = Math.floor(sn / 2);
      }
    } else {
      r = node(r, p);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  if (sn !== 0) throw new Error('inclusion proof too short');
  return r;
}

/** RFC 9162 section 2.1.4.2 for size1 < size2: the two roots the proof leads to. */
function rootsFromConsistency(
  size1: number,
  size2: number,
  root1: Buffer,
  proof: Buffer[],
): [Buffer, Buffer] {
  const path = (size1 & (size1 - 1)) === 0 ? [root1, ...proof] : proof;
  let fn = size1 - 1;
  let sn = size2 - 1;
  while (fn % 2 === 1) {
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  let fr = path[0] as Buffer;
  let sr = fr;
  for (const c of path.slice(1)) {
    if (fn % 2 === 1 || fn === sn) {
      fr = node(c, fr);
      sr = node(c, sr);
      while (fn % 2 === 0 && fn !== 0) {
        fn = Math.floor(fn / 2);
        sn = Math.floor(sn / 2);
      }
    } else {
      sr = node(sr, c);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  if (sn !== 0) throw new Error('consistency proof too short');
  return [fr, sr];
}

const ed25519 = (x: string) => createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x }, format: 'jwk' });

/** Opens a C2SP checkpoint under a verifier key name+hash+base64(0x01 || key): its origin, size and root. */
function openCheckpoint(note: string, verifierKey: string) {
  const [name = '', hash = ''] = verifierKey.split('+', 2);
  const typed = Buffer.from(verifierKey.slice(name.length + hash.length + 2), 'base64');
  expect(typed[0]).toBe(0x01);
  const publicKey = typed.subarray(1);
  const keyId = sha256(utf8(name), byte(0x0a), byte(0x01), publicKey).subarray(0, 4);
  expect(keyId.toString('hex')).toBe(hash);
  const split = note.lastIndexOf('\n\n');
  const body = note.slice(0, split + 1);
  const [line = '', ...rest] = note.slice(split + 2).split('\n');
  expect(rest).toEqual(['']);
  expect(line.startsWith(`\u2014 ${name} `)).toBe(true);
  const blob = Buffer.from(line.slice(`\u2014 ${name} `.length), 'base64');
  expect(blob.subarray(0, 4).equals(keyId)).toBe(true);
  const key = ed25519(b64url(publicKey));
  expect(verify(null, utf8(body), key, blob.subarray(4))).toBe(true);
  const [origin, size, root, ...extensions] = body.slice(0, -1).split('\n');
  expect(extensions).toEqual([]);
  return { origin, size: Number(size), root: Buffer.from(root ?? '', 'base64') };
}

const VALID = [
  'v2-one-context-item',
  'v2-full-salt-tenant',
  'v1-full-salt',
  'v2-later-checkpoint-consistent',
];

describe('docs/receipt-format.md followed with node:crypto alone', () => {
  it.each(VALID)('%s: the receipt, its commitments and its log proof come out byte for byte', (vector) => {
    const manifest = json(vector, 'vector.json');
    const root = json(vector, 'trust-root.json');
    const bundle = json(vector, 'bundle.json');
    expect(manifest.expected.verdict).toBe('verified');

    // The JWS: header, kid (RFC 7638), Ed25519 over base64url(header) "." base64url(payload).
    const [h = '', p = '', s = ''] = bundle.jws.split('.');
    const header = JSON.parse(Buffer.from(h, 'base64url').toString('utf8'));
    const [trusted] = root.receiptKeys;
    const { kty, crv, x } = trusted.jwk;
    expect(header).toEqual({ alg: 'Ed25519', kid: trusted.kid, typ: 'valve-receipt+jws' });
    expect(b64url(sha256(utf8(jcs({ crv, kty, x }))))).toBe(trusted.kid);
    expect(verify(null, utf8(`${h}.${p}`), ed25519(x), Buffer.from(s, 'base64url'))).toBe(true);
    const payload = Buffer.from(p, 'base64url');
    const body = JSON.parse(payload.toString('utf8'));
    expect(utf8(jcs(body)).equals(payload)).toBe(true);
    expect(Object.keys(body).sort()).toEqual(['cmt', 'iat', 'iss', 'rid', 'typ']);
    expect(body.iss).toBe(root.issuer);

    // Every commitment, from the request, response, salt and tenant by the page's table and derivation.
    const values = committedValues(
      json(vector, 'request.json'),
      json(vector, 'response.json'),
      body.typ,
      manifest.tenant,
    );
    expect(Object.keys(body.cmt).sort()).toEqual(Object.keys(values).sort());
    for (const [name, value] of Object.entries(values)) {
      const key = fieldKey(manifest.salt, body.rid, name);
      expect(b64url(commitment(key, name, value)), name).toBe(body.cmt[name]);
    }
    for (const [name, opened] of Object.entries(bundle.open) as [
      string,
      { value: unknown; key?: string },
    ][]) {
      expect(opened.value, name).toEqual(values[name]);
      if (opened.key !== undefined) expect(opened.key).toBe(b64url(fieldKey(manifest.salt, body.rid, name)));
    }

    // The log: entry and leaf hash, the tlog-proof's path to the signed checkpoint's root.
    const entry = sha256(utf8('valve-receipt/v1/entry'), byte(0), payload);
    const leaf = sha256(byte(0), entry);
    const [head, indexLine, ...rest] = bundle.proof.split('\n');
    expect(head).toBe('c2sp.org/tlog-proof@v1');
    const blank = rest.indexOf('');
    const path = rest.slice(0, blank).map((line: string) => Buffer.from(line, 'base64'));
    const note = rest.slice(blank + 1).join('\n');
    expect(note).toBe(text(vector, 'checkpoint.txt'));
    const checkpoint = openCheckpoint(note, root.logs[0].verifierKey);
    expect(checkpoint.origin).toBe(root.logs[0].origin);
    const index = Number(/^index (\d+)$/.exec(indexLine)?.[1]);
    expect(rootFromInclusion(leaf, index, checkpoint.size, path).equals(checkpoint.root)).toBe(true);

    // The intermediates file says the same.
    const steps = json(vector, 'intermediates.json');
    expect(steps.entryHash).toBe(entry.toString('hex'));
    expect(steps.leafHash).toBe(leaf.toString('hex'));
    expect(steps.prk).toBe(hmac(utf8('valve-receipt/v1/kdf'), utf8(manifest.salt)).toString('hex'));
    for (const [name, step] of Object.entries(steps.names) as [string, { key: string; jcs: string }][]) {
      expect(step.key).toBe(b64url(fieldKey(manifest.salt, body.rid, name)));
      expect(step.jcs).toBe(jcs(values[name]));
    }

    if (manifest.verify.consistency !== undefined) {
      const held = openCheckpoint(text(vector, manifest.verify.heldCheckpoint), root.logs[0].verifierKey);
      const proof = json(vector, manifest.verify.consistency);
      expect([proof.from, proof.to]).toEqual([held.size, checkpoint.size]);
      const hashes = proof.hashes.map((hash: string) => Buffer.from(hash, 'base64'));
      const [first, second] = rootsFromConsistency(held.size, checkpoint.size, held.root, hashes);
      expect(first.equals(held.root)).toBe(true);
      expect(second.equals(checkpoint.root)).toBe(true);
    }
  });

  it('keys.json and jwks.json name the trust root’s keys by their RFC 7638 thumbprints', () => {
    const keys = JSON.parse(readFileSync(join(dir, 'keys.json'), 'utf8'));
    const jwks = JSON.parse(readFileSync(join(dir, 'jwks.json'), 'utf8'));
    const { x } = keys.receiptKey.jwk;
    expect(sha256(utf8(keys.receiptKey.seedLabel)).toString('hex')).toBe(keys.receiptKey.seed);
    expect(b64url(Buffer.from(keys.receiptKey.publicKey, 'hex'))).toBe(x);
    expect(jwks.keys).toEqual([
      {
        kty: 'OKP',
        crv: 'Ed25519',
        x,
        kid: b64url(sha256(utf8(jcs({ crv: 'Ed25519', kty: 'OKP', x })))),
        use: 'sig',
        alg: 'Ed25519',
      },
    ]);
  });
});
