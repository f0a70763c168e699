import { generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reasonRequestSchema } from '../../../src/contracts/reason-request';
import { type ReasonResponse, reasonResponseSchema } from '../../../src/contracts/reason-response';
import type { DisclosureBundle, VerifyReport } from '../../../src/contracts/receipt-bodies';
import { cosignCheckpoint, createCosigner, formatCosignerKey } from '../../../src/log/cosignature';
import { buildDisclosure } from '../../../src/receipts/disclose';
import { oneByteMutations } from '../../helpers/bundle-mutations';
import { type RunningValve, startValve } from '../helpers/start-valve';
import { runCli } from '../receipts/run-cli';

// The browser verifier in a real headless Chromium: served by a running Valve and opened as a saved
// file; every bundle of the receipts mutation suite gives the page the report the CLI gives; a fork
// is shown in red with both checkpoints; a missing consistency proof is fetched from the Valve.

const CHROMIUM = '/usr/bin/chromium';
const hasBrowser = existsSync(CHROMIUM);
const inCi = process.env.CI === 'true';
if (!hasBrowser && !inCi) {
  console.warn(`verify-page: SKIPPED — no browser at ${CHROMIUM} (apt-get install chromium to run it)`);
}

function pkcs8Ed25519(): string {
  const { privateKey } = generateKeyPairSync('ed25519');
  return privateKey.export({ type: 'pkcs8', format: 'der' }).toString('base64');
}

const keys = { RECEIPT_SIGNING_KEY: pkcs8Ed25519(), LOG_SIGNING_KEY: pkcs8Ed25519() };
const salt = 'YnJvd3Nlci1icm93c2VyLWJyb3dzZXItYnJvd3Nlci1icm93c2Vy';
const item = (label: string, content: string) => ({
  label,
  trust: 'untrusted',
  privacy: 'internal',
  content,
});
const request = reasonRequestSchema.parse({
  task: 'compare',
  instructions: 'Compare the three quotes.',
  context: [item('A', 'Ten dollars.'), item('B', 'Twelve dollars.'), item('C', 'Nine dollars.')],
  conversation: [{ role: 'user', content: 'Which is cheapest?' }],
  receiptSalt: salt,
});

let valve: RunningValve;
let browser: Browser;
let page: Page;
let dir: string;
let trustRootText: string;
const cspViolations: string[] = [];

async function ask(target: RunningValve, body: unknown): Promise<ReasonResponse> {
  const res = await fetch(`${target.url}/v1/reason`, {
    method: 'POST',
    headers: { authorization: `Bearer ${target.key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (res.status !== 200) throw new Error(`reason: ${res.status} ${await res.text()}`);
  return reasonResponseSchema.parse(await res.json());
}

async function openPage(url: string): Promise<Page> {
  const opened = await browser.newPage();
  opened.on('console', (message) => {
    if (/Content.Security.Policy/i.test(message.text())) cspViolations.push(message.text());
  });
  await opened.goto(url);
  return opened;
}

/** Pastes a bundle, presses Verify with the keyboard, and reads the report the page rendered. */
async function verifyInPage(target: Page, bundle: unknown, tenant = ''): Promise<VerifyReport> {
  await target.evaluate(() => document.getElementById('report')?.replaceChildren());
  await target.getByLabel('Paste a bundle, or drop its file on this box').fill(JSON.stringify(bundle));
  await target.getByLabel('Tenant the receipt should be issued to (optional)').fill(tenant);
  await target.locator('#verify').focus();
  await target.keyboard.press('Enter');
  await target.locator('#report-body').waitFor();
  const json = await target.locator('#report-json').textContent();
  return JSON.parse(json ?? 'null') as VerifyReport;
}

/** The CLI's report of the same bundle, from a fresh state directory as the page's fresh storage. */
async function verifyInCli(bundle: unknown, tenant?: string, extra: string[] = []): Promise<VerifyReport> {
  const work = mkdtempSync(join(dir, 'cli-'));
  writeFileSync(join(work, 'bundle.json'), JSON.stringify(bundle));
  writeFileSync(join(work, 'root.json'), trustRootText);
  const args = [
    'verify',
    join(work, 'bundle.json'),
    '--trust-root',
    join(work, 'root.json'),
    '--state',
    join(work, 'state'),
    '--json',
  ];
  const result = await runCli([...(tenant === undefined ? args : [...args, '--tenant', tenant]), ...extra]);
  return JSON.parse(result.stdout) as VerifyReport;
}

describe('the browser verifier needs a browser', () => {
  it.runIf(inCi)(`finds Chromium at ${CHROMIUM} in CI`, () => {
    expect(hasBrowser, `CI must install chromium (${CHROMIUM} is missing)`).toBe(true);
  });
});

describe.skipIf(!hasBrowser)('the browser verifier in headless Chromium', () => {
  let response: ReasonResponse;
  let full: DisclosureBundle;
  let byKeys: DisclosureBundle;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'valve-verify-page-'));
    valve = await startValve({ vars: keys });
    trustRootText = await (await fetch(`${valve.url}/v1/trust-root`)).text();
    response = await ask(valve, request);
    full = await buildDisclosure({ request, response, salt, tenant: 'e2e' });
    byKeys = await buildDisclosure({
      request,
      response,
      salt,
      fields: Object.keys(full.open),
      tenant: 'e2e',
    });
    browser = await chromium.launch({ executablePath: CHROMIUM });
    page = await openPage(`${valve.url}/verify`);
  });

  afterAll(async () => {
    await browser?.close();
    await valve?.stop();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  it('is served with a strict Content-Security-Policy and accessible labels', async () => {
    const res = await fetch(`${valve.url}/verify`);
    const policy = res.headers.get('content-security-policy') ?? '';
    expect(policy).toMatch(/default-src 'none'/);
    expect(policy).toMatch(/script-src 'sha256-[A-Za-z0-9+/]+=*'(;|$)/);
    expect(policy).not.toMatch(/unsafe-inline|unsafe-eval|https?:/);
    expect(policy).toContain("frame-ancestors 'none'");
    expect(await page.title()).toBe('Valve receipt verifier');
    for (const id of ['root-text', 'bundle-text', 'bundle-file', 'tenant']) {
      expect(await page.locator(`label[for="${id}"]`).count(), id).toBe(1);
    }
  });

  it('pins the trust root of the Valve that serves it, and shows VERIFIED for a valid bundle', async () => {
    await page.getByRole('button', { name: 'Fetch and pin the trust root of this Valve' }).click();
    await expect.poll(() => page.locator('#root-status').textContent()).toContain('Pinned (fetched from');
    const report = await verifyInPage(page, full, 'e2e');
    expect(await page.locator('#verdict').textContent()).toBe('VERIFIED');
    expect(report.checks.filter((c) => !c.ok)).toEqual([]);
    expect(await page.locator('#checks tr.fail').count()).toBe(0);
    expect(await page.locator('#checkpoint').textContent()).toContain('valve.local/log/0');
    await page.screenshot({ path: join(tmpdir(), 'valve-verify-page.png'), fullPage: true });
  });

  it('agrees with the CLI on the valid bundles and on every one-byte mutation, naming the failed check', async () => {
    const bundles = [
      { name: 'full', bundle: full },
      { name: 'by keys', bundle: byKeys },
      ...oneByteMutations(full, byKeys),
    ];
    expect(bundles.length).toBeGreaterThan(40);
    for (const { name, bundle } of bundles) {
      await page.evaluate(() => localStorage.clear());
      await page.evaluate((root) => localStorage.setItem('valve-verify:trust-root', root), trustRootText);
      const inPage = await verifyInPage(page, bundle, 'e2e');
      const inCli = await verifyInCli(bundle, 'e2e');
      expect(inPage, name).toEqual(inCli);
      if (name !== 'full' && name !== 'by keys') {
        expect(inPage.ok, name).toBe(false);
        const failed = inPage.checks.find((c) => !c.ok)?.check as string;
        expect(
          await page.locator(`#checks tr.fail[data-check="${failed}"] td.mark`).first().textContent(),
          name,
        ).toBe('FAIL');
        expect(await page.locator('#verdict').textContent(), name).toBe('NOT VERIFIED');
        if (name === 'value of req.context[1]') {
          await page.screenshot({ path: join(tmpdir(), 'valve-verify-failed.png'), fullPage: true });
        }
      }
    }
  });

  it('takes a bundle dropped on the box or chosen as a file', async () => {
    const text = JSON.stringify(full);
    const area = page.locator('#bundle-text');
    await area.fill('');
    const dropped = await page.evaluateHandle((content) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([content], 'bundle.json', { type: 'application/json' }));
      return transfer;
    }, text);
    await area.dispatchEvent('drop', { dataTransfer: dropped });
    await expect.poll(() => area.inputValue()).toBe(text);
    await area.fill('');
    await page
      .locator('#bundle-file')
      .setInputFiles({ name: 'bundle.json', mimeType: 'application/json', buffer: Buffer.from(text) });
    await expect.poll(() => area.inputValue()).toBe(text);
  });

  it('verifies a bundle opening one of three context items, as the CLI does', async () => {
    const one = await buildDisclosure({ request, response, salt, fields: ['req.context[1]'] });
    const inPage = await verifyInPage(page, one);
    expect(inPage).toEqual(await verifyInCli(one));
    expect(inPage.verdict).toBe('verified');
    const status = Object.fromEntries(inPage.fields.map((f) => [f.field, f.status]));
    expect(status).toMatchObject({
      'req.context[0]': 'committed, not disclosed',
      'req.context[1]': 'verified',
      'req.context[2]': 'committed, not disclosed',
    });
    expect(await page.locator('#fields').textContent()).toContain('Twelve dollars.');
    expect(await page.locator('#fields').textContent()).not.toContain('Nine dollars.');
  });

  it('remembers the checkpoint and fetches the consistency proof from the Valve that serves it', async () => {
    await page.evaluate(() => localStorage.removeItem('valve-verify:checkpoint:valve.local/log/0'));
    expect((await verifyInPage(page, full)).verdict).toBe('verified');
    const later = await ask(valve, { ...request, task: 'later' });
    const bundle = await buildDisclosure({ request: { ...request, task: 'later' }, response: later, salt });
    const report = await verifyInPage(page, bundle);
    expect(report.checks.at(-1)).toMatchObject({ check: 'log.consistency', ok: true });
    expect(report.checks.at(-1)?.detail).toMatch(/^consistent from \d+ to \d+$/);
    expect(await page.locator('#held').textContent()).toContain(`size ${report.log?.treeSize}`);
  });

  it('shows a fork in red with both checkpoints', async () => {
    // A second log with the same origin and key but another history: what a forking log shows.
    const twin = await startValve({ vars: keys });
    try {
      // Held: the first receipt's checkpoint, at the size of the twin's first — two signed roots of one
      // size. (A fork between sizes shows only through the log's own proof, and not from every size.)
      await page.evaluate(() => localStorage.removeItem('valve-verify:checkpoint:valve.local/log/0'));
      expect((await verifyInPage(page, full)).ok).toBe(true);
      const other = { ...request, instructions: 'Something else entirely.' };
      const forked = await buildDisclosure({ request: other, response: await ask(twin, other), salt });
      const report = await verifyInPage(page, forked);
      expect(report.verdict).toBe('fork');
      expect(await page.locator('#verdict').textContent()).toMatch(/^FORK/);
      const box = page.locator('#security');
      expect(await box.getAttribute('role')).toBe('alert');
      expect(await box.locator('h4').allTextContents()).toEqual(['Checkpoint held', 'Checkpoint new']);
      expect(await box.evaluate((el) => getComputedStyle(el).borderTopColor)).toBe('rgb(155, 17, 17)');
      await page.screenshot({ path: join(tmpdir(), 'valve-verify-fork.png'), fullPage: true });
    } finally {
      await twin.stop();
    }
  });

  it('works as a saved file opened from disk, with a pasted trust root and no network', async () => {
    const saved = join(dir, 'valve-verify.html');
    writeFileSync(saved, await (await fetch(`${valve.url}/verify/valve-verify.html`)).text());
    const offline = await openPage(pathToFileURL(saved).href);
    const requests: string[] = [];
    offline.on('request', (r) => requests.push(r.url()));
    expect(await offline.locator('#root-fetch').isDisabled()).toBe(true);
    await offline.getByLabel('Or paste a trust root (the JSON of GET /v1/trust-root)').fill(trustRootText);
    await offline.getByRole('button', { name: 'Pin the pasted trust root' }).click();
    const report = await verifyInPage(offline, full);
    expect(report.verdict).toBe('verified');
    // A later receipt needs a consistency proof; offline the page asks for it, then takes it pasted.
    const later = await ask(valve, { ...request, task: 'offline' });
    const bundle = await buildDisclosure({ request: { ...request, task: 'offline' }, response: later, salt });
    const waiting = await verifyInPage(offline, bundle);
    expect(waiting.verdict).toBe('could not check');
    expect(await offline.locator('#failed-summary').textContent()).toContain('needs a consistency proof');
    const [from, to] = [report.log?.treeSize, waiting.log?.treeSize];
    const proof = await (await fetch(`${valve.url}/v1/log/consistency?from=${from}&to=${to}`)).text();
    await offline.getByLabel('Consistency proof (optional; the JSON of GET /v1/log/consistency)').fill(proof);
    expect((await verifyInPage(offline, bundle)).verdict).toBe('verified');
    expect(requests).toEqual([]);
    await offline.close();
  });

  it('names the receipt a link from the console asks about, and says when a bundle is for another', async () => {
    const other = '3f0e2a6c-5b1d-4c8e-9a7f-0123456789ab';
    for (const [id, mismatch] of [
      [response.receiptId, false],
      [other, true],
    ] as const) {
      const linked = await openPage(`${valve.url}/verify#receipt=${id}`);
      const note = linked.locator('#receipt-wanted');
      expect(await note.textContent()).toContain(`Receipt ${id}: paste the disclosure bundle`);
      await linked.getByRole('button', { name: 'Fetch and pin the trust root of this Valve' }).click();
      await expect.poll(() => linked.locator('#root-status').textContent()).toContain('Pinned');
      expect((await verifyInPage(linked, full, 'e2e')).verdict).toBe('verified');
      const said = await note.textContent();
      if (mismatch) expect(said).toBe(`This bundle is for receipt ${response.receiptId}, not ${other}.`);
      else expect(said).toContain(`Receipt ${id}: paste`);
      await linked.close();
    }
  });

  it('checks "at least k of these witnesses" as the CLI does, and names who cosigned', async () => {
    const cosigner = await createCosigner('w1.witness.test', pkcs8Ed25519());
    const absent = await createCosigner('w2.witness.test', pkcs8Ed25519());
    const [w1, w2] = [cosigner, absent].map((c) => formatCosignerKey(c.name, c.publicKey)) as [
      string,
      string,
    ];
    // The proof's checkpoint note follows its first blank line; its text ends at the note's blank line.
    const note = full.proof.slice(full.proof.indexOf('\n\n') + 2);
    const text = note.slice(0, note.indexOf('\n\n') + 1);
    const cosigned = { ...full, proof: full.proof + (await cosignCheckpoint(text, cosigner, 1_790_000_000)) };
    const fresh = await openPage(`${valve.url}/verify`);
    await fresh.evaluate((root) => localStorage.setItem('valve-verify:trust-root', root), trustRootText);
    await fresh.reload();
    for (const quorum of ['1', '2']) {
      // Each run starts holding no checkpoint, as the CLI's fresh state directory does.
      await fresh.evaluate(() => {
        for (const key of Object.keys(localStorage)) {
          if (key.startsWith('valve-verify:checkpoint:')) localStorage.removeItem(key);
        }
      });
      await fresh.getByLabel(/Witnesses you trust/).fill(`${w1}\n${w2}`);
      await fresh.getByLabel('How many of them must have cosigned the checkpoint').fill(quorum);
      const inPage = await verifyInPage(fresh, cosigned, 'e2e');
      // The page asks the Valve that serves it for a cosigned proof (this one has no witnesses), as
      // the CLI does with --fetch.
      const inCli = await verifyInCli(cosigned, 'e2e', [
        '--fetch',
        valve.url,
        '--witness',
        w1,
        '--witness',
        w2,
        '--witness-quorum',
        quorum,
      ]);
      expect(inPage).toEqual(inCli);
      expect(inPage.log?.cosignedBy).toEqual([{ name: 'w1.witness.test', timestamp: 1_790_000_000 }]);
      expect(await fresh.locator('#verdict').textContent()).toBe(
        quorum === '1' ? 'VERIFIED' : 'NOT VERIFIED',
      );
      expect(await fresh.locator('dl.summary').textContent()).toContain('w1.witness.test (2026-09-21T');
    }
    await fresh.getByLabel(/Witnesses you trust/).fill('not a key');
    await fresh.locator('#verify').click();
    await expect.poll(() => fresh.locator('#report').textContent()).toContain('Witness key not a key');
    await fresh.close();
  });

  it('raised no Content-Security-Policy violation on any page', () => {
    expect(cspViolations).toEqual([]);
  });
});
