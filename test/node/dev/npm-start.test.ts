import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type NpmStart, printedKeyAndUrl, startNpmStart } from '../helpers/start-npm-start';

// `npm start` (scripts/dev.js) on a free port with its own state folder and .dev.vars: it prints a key
// and a curl line that work on the first request, serves from one workerd (the deploy bundle, no
// `wrangler dev` proxy in front), keeps its state where `wrangler dev` keeps it, prints where its console is and
// which file holds the token to sign in with, and exits 0 on Ctrl-C.

let started: NpmStart;

/** Pids of the descendants of `pid` named `name`, from /proc. */
function descendants(pid: number, name: string): number[] {
  const parentOf = new Map<number, number>();
  const nameOf = new Map<number, string>();
  for (const entry of readdirSync('/proc').filter((e) => /^\d+$/.test(e))) {
    try {
      const status = readFileSync(`/proc/${entry}/status`, 'utf8');
      parentOf.set(Number(entry), Number(/^PPid:\s*(\d+)/m.exec(status)?.[1]));
      nameOf.set(Number(entry), /^Name:\s*(.+)$/m.exec(status)?.[1]?.trim() ?? '');
    } catch {
      // the process ended meanwhile
    }
  }
  const isBelow = (p: number): boolean => {
    for (let up = parentOf.get(p); up !== undefined && up > 1; up = parentOf.get(up)) {
      if (up === pid) return true;
    }
    return false;
  };
  return [...nameOf].filter(([p, n]) => n === name && isBelow(p)).map(([p]) => p);
}

beforeAll(async () => {
  started = await startNpmStart();
}, 120_000);

afterAll(() => started.cleanUp());

describe('npm start', () => {
  it('answers the printed curl line with the printed key, from one workerd, and exits 0 on Ctrl-C', async () => {
    const { child, work } = started;
    const { key, url, body } = printedKeyAndUrl(started.output());
    expect(key).toBeDefined();
    expect(url).toBeDefined();
    const res = await fetch(url as string, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: body as string,
    });
    const answer = (await res.json()) as { model?: { provider?: string }; receipt?: { jws?: string } };
    expect(res.status).toBe(200);
    expect(answer.model?.provider).toBe('sim');
    expect(typeof answer.receipt?.jws).toBe('string');

    // `wrangler dev` would run two: its proxy Worker's and the Worker's.
    expect(descendants(child.pid as number, 'workerd')).toHaveLength(1);
    // The layout `wrangler dev --persist-to` and `wrangler d1 … --local` use.
    expect(existsSync(join(work, 'state', 'v3', 'd1'))).toBe(true);
    expect(existsSync(join(work, 'state', 'v3', 'do', 'valve-ReceiptLog'))).toBe(true);

    // The console it prints, signed in with the ADMIN_TOKEN of the .dev.vars it names.
    const [, consoleUrl, devVars] =
      /The operator's console:\s+(\S+)\s+\(sign in with ADMIN_TOKEN from (\S+)\)/.exec(started.output()) ??
      [];
    const page = await fetch(consoleUrl as string);
    expect([page.status, (await page.text()).includes('<title>Valve console</title>')]).toEqual([200, true]);
    const token = /^ADMIN_TOKEN=(.+)$/m.exec(readFileSync(devVars as string, 'utf8'))?.[1];
    const tenants = await fetch(new URL('/v1/admin/tenants', consoleUrl), {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(tenants.status).toBe(200);
    expect(
      ((await tenants.json()) as { tenants: { tenant: string }[] }).tenants.map((t) => t.tenant),
    ).toContain('dev');

    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGINT');
    expect(await exited).toBe(0);
  });
});
