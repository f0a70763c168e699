import type { DisclosureBundle } from '../../src/contracts/receipt-bodies';
import type { TrustRoot } from '../../src/contracts/trust-root';
import { decodeBase64Url, encodeBase64, encodeBase64Url } from '../../src/encoding/base64';
import type { Bytes } from '../../src/encoding/bytes';
import { utf8 } from '../../src/encoding/utf8';
import { commitField, deriveFieldKey } from '../../src/receipts/commitments';
import { buildDisclosure } from '../../src/receipts/disclose';
import { canonicalJson, type JsonValue } from '../../src/receipts/jcs';
import { signReceiptPayload } from '../../src/receipts/jws';
import type { Issued, IssuedLog } from './issue-vector-receipts';
import { type Expected, expectRun, MAIN_V2_NAMES, V1_NAMES } from './vector-expectations';
import { SALTS, TENANT } from './vector-fixtures';

// The vectors, one by one: the genuine receipts disclosed three ways, and each fault a verifier must
// find, made by changing one thing of a genuine bundle (or of what the auditor holds).

export interface VectorSpec {
  name: string;
  description: string;
  /** What was changed from the genuine receipt or bundle, for a tampered vector. */
  tampered?: string;
  receipt: Issued;
  bundle: DisclosureBundle;
  trustRoot: TrustRoot;
  /** `--tenant`: the tenant the auditor expects. */
  tenant?: string;
  /** The checkpoint the auditor already holds for the log (its `--state`). */
  held?: string;
  /** A consistency proof the auditor was given (`--consistency`). */
  consistency?: { from: number; to: number; hashes: string[] };
  expected: Expected;
}

const B64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
/** The first character of base64url text replaced by the next letter: the first byte's top bits change. */
function nextFirstLetter(text: string): string {
  return `${B64URL[(B64URL.indexOf(text[0] as string) + 1) % 64]}${text.slice(1)}`;
}

const segmentsOf = (jws: string) => jws.split('.') as [string, string, string];
const payloadOf = (jws: string) =>
  JSON.parse(new TextDecoder().decode(decodeBase64Url(segmentsOf(jws)[1]) ?? new Uint8Array())) as {
    iat: number;
    cmt: Record<string, string>;
  };

export async function specsOf(log: IssuedLog): Promise<VectorSpec[]> {
  const { main, v1, honest, forked, keys, trustRoot } = log;
  const disclose = (fields?: string[], tenant?: string) =>
    buildDisclosure({ request: main.request, response: main.response, salt: main.salt, fields, tenant });
  const oneItem = await disclose(['req.context[1]']);
  const full = await disclose();
  const fullWithTenant = await disclose(undefined, TENANT);
  const v1Full = await buildDisclosure({ request: v1.request, response: v1.response, salt: v1.salt });
  const laterProof = honest.proof(main.index, 5);
  const withoutTenant = MAIN_V2_NAMES.filter((n) => n !== 'req.tenant');
  const one = ['req.context[1]'];

  // A claim changed after signing: another answer's commitment in place of res.output's, and the
  // bundle opening that answer with its key, as a caller would who wants it believed.
  const forgedOutput = { format: 'json', value: { cheaper: 'A', reason: 'Fifteen dollars is less.' } };
  const outputKey = await deriveFieldKey(main.salt, main.rid, 'res.output');
  const forgedBody = payloadOf(main.jws);
  forgedBody.cmt['res.output'] = encodeBase64Url(await commitField(outputKey, 'res.output', forgedOutput));
  const [header, , signature] = segmentsOf(main.jws);
  const forgedPayload = encodeBase64Url(utf8(canonicalJson(forgedBody as unknown as JsonValue)));
  const notCanonical = await signReceiptPayload(
    utf8(JSON.stringify(payloadOf(main.jws), null, 1)),
    keys.receipt,
  );
  const tamperedConsistency = honest.consistency(3, 5);
  tamperedConsistency.hashes[0] = encodeBase64(new Uint8Array(32).fill(0x5a));

  return [
    {
      name: 'v2-one-context-item',
      description:
        'A v2 receipt disclosed one context document at a time: the bundle opens req.context[1] with its own key K_f and holds no salt, so every other name stays committed, not disclosed.',
      receipt: main,
      bundle: oneItem,
      trustRoot,
      expected: expectRun('verified', { opened: one }),
    },
    {
      name: 'v2-full-salt-tenant',
      description:
        'A v2 receipt with the salt in the bundle, every name opened (each item, and req.tenant), and the auditor naming the tenant.',
      receipt: main,
      bundle: fullWithTenant,
      trustRoot,
      tenant: TENANT,
      expected: expectRun('verified', { opened: MAIN_V2_NAMES, tenant: true }),
    },
    {
      name: 'v1-full-salt',
      description:
        'A valve-receipt/v1 receipt (twelve fields, no tenant, no items), every field opened with the salt.',
      receipt: v1,
      bundle: v1Full,
      trustRoot,
      expected: expectRun('verified', { opened: V1_NAMES }),
    },
    {
      name: 'v2-later-checkpoint-consistent',
      description:
        'The v2 receipt with its inclusion proof at the log’s later checkpoint (size 5, as GET /v1/receipts/{id} answers), an auditor who holds the size-3 checkpoint, and the log’s consistency proof from 3 to 5.',
      receipt: main,
      bundle: { ...oneItem, proof: laterProof },
      trustRoot,
      held: honest.checkpoint(3),
      consistency: honest.consistency(3, 5),
      expected: expectRun('verified', { opened: one, held: true }),
    },
    {
      name: 'tampered-signature',
      description: 'The receipt’s Ed25519 signature changed.',
      tampered: 'the first character of the JWS signature segment replaced by the next base64url letter',
      receipt: main,
      bundle: { ...oneItem, jws: `${header}.${segmentsOf(main.jws)[1]}.${nextFirstLetter(signature)}` },
      trustRoot,
      expected: expectRun('not verified', { opened: one, failing: { 'jws.signature': 'fault' } }),
    },
    {
      name: 'tampered-claim',
      description:
        'A signed claim changed: cmt["res.output"] replaced by the commitment of another answer, which the bundle opens with its key. Without the signature check every other check would pass.',
      tampered: 'the JWS payload re-encoded with a different cmt["res.output"], header and signature kept',
      receipt: main,
      bundle: {
        jws: `${header}.${forgedPayload}.${signature}`,
        proof: main.response.receipt.proof,
        open: { 'res.output': { value: forgedOutput, key: encodeBase64Url(outputKey) } },
      },
      trustRoot,
      expected: expectRun('not verified', { opened: ['res.output'], failing: { 'jws.signature': 'fault' } }),
    },
    {
      name: 'unknown-receipt-key',
      description:
        'The genuine payload signed by a key the trust root does not list (its kid is in the header).',
      tampered: 'the payload re-signed with another Ed25519 key',
      receipt: main,
      bundle: { ...oneItem, jws: await signReceiptPayload(payloadBytes(main.jws), keys.unknownReceipt) },
      trustRoot,
      expected: expectRun('not verified', { opened: one, failing: { 'jws.kid': 'fault' } }),
    },
    {
      name: 'key-retired-before-iat',
      description:
        'A trust root in which the receipt key’s window ends at the receipt’s iat: validUntil is exclusive, so the key was not valid when the receipt says it was issued.',
      receipt: main,
      bundle: oneItem,
      trustRoot: {
        ...trustRoot,
        receiptKeys: trustRoot.receiptKeys.map((k) => ({ ...k, validUntil: payloadOf(main.jws).iat })),
      },
      expected: expectRun('not verified', { opened: one, failing: { 'jws.key-validity': 'fault' } }),
    },
    {
      name: 'payload-not-canonical',
      description:
        'A payload signed by the trusted key but not in RFC 8785 form (members unsorted, whitespace): a verifier must refuse bytes that are not the JCS of themselves.',
      tampered: 'the body serialized with JSON.stringify(body, null, 1) and signed by the receipt key',
      receipt: main,
      bundle: { ...oneItem, jws: notCanonical },
      trustRoot,
      expected: expectRun('not verified', { opened: one, failing: { 'payload.jcs': 'fault' } }),
    },
    {
      name: 'wrong-issuer',
      description: 'The genuine receipt checked against a trust root whose issuer is another deployment’s.',
      receipt: main,
      bundle: oneItem,
      trustRoot: { ...trustRoot, issuer: 'https://staging.valve.example' },
      expected: expectRun('not verified', { opened: one, failing: { 'payload.issuer': 'fault' } }),
    },
    {
      name: 'wrong-salt',
      description:
        'A bundle that carries a well-formed salt other than the one the receipt was committed under: no opened value matches its commitment.',
      tampered: `the bundle's salt replaced by ${SALTS.wrong}`,
      receipt: main,
      bundle: { ...full, salt: SALTS.wrong },
      trustRoot,
      expected: expectRun('not verified', {
        opened: withoutTenant,
        failing: Object.fromEntries(withoutTenant.map((n) => [`open.${n}`, 'fault' as const])),
      }),
    },
    {
      name: 'wrong-opened-value',
      description: 'The opened context document changed (its content says eleven dollars, not twelve).',
      tampered: 'open["req.context[1]"].value.content changed',
      receipt: main,
      bundle: {
        ...oneItem,
        open: {
          'req.context[1]': {
            ...(oneItem.open['req.context[1]'] as { value: unknown; key: string }),
            value: { ...(main.request.context?.[1] ?? {}), content: 'Eleven dollars.\nValid 30 days.' },
          },
        },
      },
      trustRoot,
      expected: expectRun('not verified', { opened: one, failing: { 'open.req.context[1]': 'fault' } }),
    },
    {
      name: 'wrong-tenant',
      description: 'The auditor expects tenant "globex"; the receipt was issued to "acme".',
      receipt: main,
      bundle: fullWithTenant,
      trustRoot,
      tenant: 'globex',
      expected: expectRun('not verified', {
        opened: MAIN_V2_NAMES,
        tenant: true,
        failing: { tenant: 'fault' },
      }),
    },
    {
      name: 'tenant-without-key',
      description:
        'The auditor names a tenant, but the bundle holds neither the salt nor the key of req.tenant: the tenant cannot be checked.',
      receipt: main,
      bundle: oneItem,
      trustRoot,
      tenant: TENANT,
      expected: expectRun('could not check', { opened: one, tenant: true, failing: { tenant: 'unchecked' } }),
    },
    {
      name: 'v1-opens-tenant',
      description: 'A v1 bundle that opens req.tenant, which a v1 receipt does not commit to.',
      tampered: 'open["req.tenant"] added to the v1 bundle',
      receipt: v1,
      bundle: { ...v1Full, open: { ...v1Full.open, 'req.tenant': { value: TENANT } } },
      trustRoot,
      expected: expectRun('not verified', {
        opened: [...V1_NAMES, 'req.tenant'],
        failing: { 'open.req.tenant': 'fault' },
      }),
    },
    {
      name: 'bundle-unknown-name',
      description:
        'A bundle whose open names something no receipt commits to (req.rendering is not committed).',
      tampered: 'open["req.rendering"] added',
      receipt: main,
      bundle: {
        ...oneItem,
        open: { ...oneItem.open, 'req.rendering': { value: null, key: oneKey(oneItem) } },
      },
      trustRoot,
      expected: expectRun('not verified', { opened: [], failing: { 'bundle.format': 'fault' } }),
    },
    {
      name: 'proof-for-another-leaf',
      description:
        'The receipt with the inclusion proof of another entry (index 1, the v1 receipt) at the same, genuinely signed checkpoint.',
      tampered: 'the tlog-proof replaced by the log’s proof of entry 1 at size 3',
      receipt: main,
      bundle: { ...oneItem, proof: honest.proof(1, 3) },
      trustRoot,
      expected: expectRun('not verified', { opened: one, failing: { 'log.inclusion': 'fault' } }),
    },
    {
      name: 'checkpoint-unknown-key',
      description:
        'The genuine inclusion path, ending in a checkpoint of the same origin, size and root signed by a key the trust root does not list.',
      tampered: 'the checkpoint re-signed by another Ed25519 key under the log’s key name',
      receipt: main,
      bundle: {
        ...oneItem,
        proof: honest.proof(main.index, 3, await honest.signCheckpoint(3, keys.unknownLog)),
      },
      trustRoot,
      expected: expectRun('not verified', { opened: one, failing: { 'log.checkpoint': 'fault' } }),
    },
    {
      name: 'missing-consistency-proof',
      description:
        'The auditor holds the size-3 checkpoint and the bundle’s is at size 5; offline, with no consistency proof, consistency cannot be checked.',
      receipt: main,
      bundle: { ...oneItem, proof: laterProof },
      trustRoot,
      held: honest.checkpoint(3),
      expected: expectRun('could not check', {
        opened: one,
        held: true,
        failing: { 'log.consistency': 'unchecked' },
      }),
    },
    {
      name: 'bad-consistency-proof',
      description:
        'A consistency proof from 3 to 5 whose first hash was replaced: it leads to neither signed root, which shows only that the proof is bad (anyone can write one), not a fork.',
      tampered: 'consistency.json hashes[0] replaced by 32 bytes of 0x5a',
      receipt: main,
      bundle: { ...oneItem, proof: laterProof },
      trustRoot,
      held: honest.checkpoint(3),
      consistency: tamperedConsistency,
      expected: expectRun('could not check', {
        opened: one,
        held: true,
        failing: { 'log.consistency': 'unchecked' },
      }),
    },
    {
      name: 'fork-same-size',
      description:
        'The auditor holds a checkpoint of the same log at the same size (3) with another root, signed by the log’s own key: two histories, a fork.',
      receipt: main,
      bundle: oneItem,
      trustRoot,
      held: forked.checkpoint(3),
      expected: expectRun('fork', { opened: one, held: true, failing: { 'log.consistency': 'fault' } }),
    },
    {
      name: 'fork-consistency-proof',
      description:
        'The auditor holds the other history’s size-3 checkpoint; the bundle’s checkpoint is at size 5, and the log’s own consistency proof from 3 to 5 leads to its signed size-5 root and through it to a size-3 root other than the held one: a fork.',
      receipt: main,
      bundle: { ...oneItem, proof: laterProof },
      trustRoot,
      held: forked.checkpoint(3),
      consistency: honest.consistency(3, 5),
      expected: expectRun('fork', { opened: one, held: true, failing: { 'log.consistency': 'fault' } }),
    },
  ];
}

function payloadBytes(jws: string): Bytes {
  const bytes = decodeBase64Url(segmentsOf(jws)[1]);
  if (bytes === null) throw new TypeError('the JWS payload is not base64url');
  return bytes;
}

function oneKey(bundle: DisclosureBundle): string {
  const key = Object.values(bundle.open)[0]?.key;
  if (key === undefined) throw new TypeError('the bundle opens nothing by key');
  return key;
}
