import { config } from 'zod';
import {
  type ConsistencyBody,
  consistencyBodySchema,
  entryProofBodySchema,
} from '../../src/contracts/receipt-bodies';
import { type TrustRoot, trustRootSchema } from '../../src/contracts/trust-root';
import { parseCosignerKey, type WitnessPolicy } from '../../src/log/cosignature';
import type { FetchProof } from '../../src/receipts/cosigned-proof';
import { parseIJson } from '../../src/receipts/i-json';
import { type FetchConsistency, verifyWithHeldCheckpoint } from '../../src/receipts/verify-held';
import { forgetCheckpoints, heldCheckpoints, storageMemory, TRUST_ROOT_KEY } from './browser-memory';
import { renderProblem, renderReport } from './render-report';

// The browser verifier: the same verification as `valve-verify verify`, run on this page with
// WebCrypto. The only requests it makes go to the Valve that served it (its trust root and, when it
// serves the bundle's log, a missing consistency proof); bundles never leave the page.

// zod probes `new Function` unless told not to; the page's Content-Security-Policy forbids eval.
config({ jitless: true });

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const servedOverHttp = location.protocol === 'http:' || location.protocol === 'https:';
let trustRoot: TrustRoot | undefined;

function parseStrict(text: string, what: string): unknown {
  const parsed = parseIJson(text);
  if (!parsed.ok) {
    const problem = parsed.problems[0];
    throw new Error(
      `The ${what} is not I-JSON: ${problem?.problem ?? 'not JSON'}${problem?.path ? ` at "${problem.path}"` : ''}.`,
    );
  }
  return parsed.value;
}

function pin(root: TrustRoot, how: string): void {
  trustRoot = root;
  localStorage.setItem(TRUST_ROOT_KEY, JSON.stringify(root));
  $('root-status').textContent =
    `Pinned (${how}): issuer ${root.issuer}, ${root.receiptKeys.length} receipt key(s), logs ${root.logs.map((l) => l.origin).join(', ')}.`;
}

function pinText(text: string, how: string): void {
  const parsed = trustRootSchema.safeParse(parseStrict(text, 'trust root'));
  if (!parsed.success) throw new Error('That is not a Valve trust root (GET /v1/trust-root).');
  pin(parsed.data, how);
}

async function fetchJson(path: string): Promise<unknown> {
  const res = await fetch(path, { headers: { accept: 'application/json' }, credentials: 'omit' });
  if (!res.ok) throw new Error(`${path} answered ${res.status}`);
  return res.json();
}

/** Only the Valve that served the page is asked, and only for a log (shard) it serves. */
const fetchFromThisValve: FetchConsistency = async (origin, from, to) => {
  const shard = `origin=${encodeURIComponent(origin)}`;
  const served = (await fetchJson(`/v1/log/checkpoint?${shard}`)) as { origin?: unknown };
  if (served.origin !== origin)
    throw new Error(`this Valve serves the log ${String(served.origin)}, not ${origin}`);
  const body = consistencyBodySchema.safeParse(
    await fetchJson(`/v1/log/consistency?from=${from}&to=${to}&${shard}`),
  );
  if (!body.success) throw new Error('the log did not answer a consistency proof');
  return body.data;
};

/** The entry's proof at this Valve's published (cosigned) checkpoint, for a bundle that lacks the witnesses. */
const fetchProofFromThisValve: FetchProof = async (origin, index) => {
  const body = entryProofBodySchema.safeParse(
    await fetchJson(`/v1/log/proof?index=${index}&origin=${encodeURIComponent(origin)}`),
  );
  if (!body.success || body.data.origin !== origin || body.data.index !== index) {
    throw new Error('the log did not answer this entry’s proof');
  }
  return body.data.proof;
};

function showHeld(): void {
  const list = $('held');
  list.replaceChildren();
  const held = heldCheckpoints(localStorage);
  if (held.length === 0)
    list.append(Object.assign(document.createElement('li'), { textContent: 'None yet.' }));
  for (const { origin, note } of held) {
    const item = document.createElement('li');
    const size = note.split('\n')[1] ?? '?';
    item.textContent = `${origin}: size ${size}`;
    list.append(item);
  }
}

function showReport(node: HTMLElement): void {
  $('report').replaceChildren(node);
  $('report-heading').focus();
}

/** The witness keys and quorum the page was given; a string says what is wrong with them. */
function witnessPolicy(): WitnessPolicy | undefined | string {
  const keys = $<HTMLTextAreaElement>('witness-keys')
    .value.split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
  const quorumText = $<HTMLInputElement>('witness-quorum').value.trim();
  if (keys.length === 0) return quorumText === '' ? undefined : 'A quorum needs at least one witness key.';
  for (const key of keys) {
    const parsed = parseCosignerKey(key);
    if (!parsed.ok) return `Witness key ${key}: ${parsed.reason}.`;
  }
  const quorum = quorumText === '' ? keys.length : Number(quorumText);
  if (!Number.isInteger(quorum) || quorum < 1 || quorum > keys.length) {
    return `The quorum is 1 to the ${keys.length} witness keys given.`;
  }
  return { witnesses: keys, quorum };
}

async function verify(): Promise<void> {
  if (trustRoot === undefined) {
    showReport(renderProblem('Pin a trust root first: fetch it from this Valve or paste it.'));
    return;
  }
  let bundle: unknown;
  try {
    bundle = parseStrict($<HTMLTextAreaElement>('bundle-text').value, 'bundle');
  } catch (error) {
    showReport(renderProblem((error as Error).message));
    return;
  }
  const tenant = $<HTMLInputElement>('tenant').value.trim();
  const proofText = $<HTMLTextAreaElement>('consistency-text').value.trim();
  let consistency: ConsistencyBody | undefined;
  if (proofText !== '') {
    try {
      const parsed = consistencyBodySchema.safeParse(parseStrict(proofText, 'consistency proof'));
      if (!parsed.success) throw new Error('The consistency proof is not a GET /v1/log/consistency answer.');
      consistency = parsed.data;
    } catch (error) {
      showReport(renderProblem((error as Error).message));
      return;
    }
  }
  const witnesses = witnessPolicy();
  if (typeof witnesses === 'string') {
    showReport(renderProblem(witnesses));
    return;
  }
  const report = await verifyWithHeldCheckpoint(bundle, trustRoot, {
    tenant: tenant === '' ? undefined : tenant,
    witnesses,
    consistency,
    memory: storageMemory(localStorage),
    fetchConsistency: servedOverHttp ? fetchFromThisValve : undefined,
    fetchProof: servedOverHttp ? fetchProofFromThisValve : undefined,
  });
  showReport(renderReport(report));
  showHeld();
  if (wanted !== undefined && report.receiptId !== null && report.receiptId !== wanted) {
    $('receipt-wanted').textContent = `This bundle is for receipt ${report.receiptId}, not ${wanted}.`;
  }
}

/** The receipt a link asked about (`/verify#receipt=<id>`, as the console links its receipts), if any. */
const wanted = /^#receipt=([0-9a-f-]{36})$/.exec(location.hash)?.[1];

function showWanted(): void {
  if (wanted === undefined) return;
  const note = $('receipt-wanted');
  note.textContent = `Receipt ${wanted}: paste the disclosure bundle its caller wrote with valve-verify disclose. Valve keeps the receipt, not the content or the salt a disclosure needs.`;
  note.hidden = false;
}

function readDropped(file: File | undefined): void {
  if (file === undefined) return;
  file.text().then((text) => {
    $<HTMLTextAreaElement>('bundle-text').value = text;
  });
}

function wire(): void {
  const fetchButton = $<HTMLButtonElement>('root-fetch');
  if (!servedOverHttp) {
    fetchButton.disabled = true;
    fetchButton.setAttribute('aria-describedby', 'root-status');
    $('root-status').textContent =
      'No trust root is pinned. This copy was opened from a file: paste the trust root.';
  }
  fetchButton.addEventListener('click', async () => {
    try {
      const root = trustRootSchema.safeParse(await fetchJson('/v1/trust-root'));
      if (!root.success) throw new Error('the answer is not a trust root');
      pin(root.data, `fetched from ${location.origin}`);
    } catch (error) {
      $('root-status').textContent = `Could not fetch the trust root: ${(error as Error).message}.`;
    }
  });
  $('root-pin').addEventListener('click', () => {
    try {
      pinText($<HTMLTextAreaElement>('root-text').value, 'pasted');
    } catch (error) {
      $('root-status').textContent = (error as Error).message;
    }
  });
  $('verify').addEventListener('click', () => {
    verify().catch((error: unknown) => showReport(renderProblem(`Could not verify: ${String(error)}`)));
  });
  $<HTMLInputElement>('bundle-file').addEventListener('change', (event) => {
    readDropped((event.target as HTMLInputElement).files?.[0]);
  });
  const area = $<HTMLTextAreaElement>('bundle-text');
  area.addEventListener('dragover', (event) => {
    event.preventDefault();
    area.classList.add('dragging');
  });
  area.addEventListener('dragleave', () => area.classList.remove('dragging'));
  area.addEventListener('drop', (event) => {
    event.preventDefault();
    area.classList.remove('dragging');
    readDropped(event.dataTransfer?.files[0]);
  });
  $('forget').addEventListener('click', () => {
    forgetCheckpoints(localStorage);
    showHeld();
  });
  const saved = localStorage.getItem(TRUST_ROOT_KEY);
  if (saved !== null) {
    try {
      pinText(saved, 'remembered by this browser');
    } catch {
      localStorage.removeItem(TRUST_ROOT_KEY);
    }
  }
  showHeld();
  showWanted();
}

wire();
