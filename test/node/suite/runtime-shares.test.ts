import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { workersTestGroups } from '../../runtime-groups';
import { runtimeShares, shareSize, shareSource, writeRuntimeShares } from '../../runtime-shares';

const root = resolve(import.meta.dirname, '../../..');
const scratch = mkdtempSync(join(tmpdir(), 'valve-shares-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const files = (folder: string, count: number) =>
  Array.from({ length: count }, (_, i) => `${folder}/f${String(i).padStart(2, '0')}.test.ts`);

describe('the Workers files that share a runtime', () => {
  it('run every file that reaches the runtime exactly once, in shares of one folder and at most shareSize files', () => {
    const { own } = workersTestGroups(root);
    expect(own.length).toBeGreaterThan(50);
    const shares = runtimeShares(own);
    expect(shares.flatMap((share) => share.files).sort()).toEqual([...own].sort());
    for (const share of shares) {
      expect(share.files.length).toBeGreaterThan(0);
      expect(share.files.length).toBeLessThanOrEqual(shareSize);
      expect(new Set(share.files.map((file) => dirname(file))).size).toBe(1);
    }
    expect(new Set(shares.map((share) => share.name)).size).toBe(shares.length);
    // The point of sharing: far fewer runtimes than files.
    expect(shares.length).toBeLessThan(own.length / 2);
  });

  it('never name the same tenant in two files of one folder, which may share storage', () => {
    const { own } = workersTestGroups(root);
    const owner = new Map<string, string>();
    const clashes: string[] = [];
    for (const file of own) {
      const source = readFileSync(join(root, file), 'utf8');
      const tenants = new Set([...source.matchAll(/createKey\(\s*'([^']+)'/g)].map((match) => match[1]));
      for (const tenant of tenants) {
        const key = `${dirname(file)} ${tenant}`;
        const first = owner.get(key);
        if (first === undefined) owner.set(key, file);
        else clashes.push(`${tenant}: ${first} and ${file}`);
      }
    }
    expect(owner.size).toBeGreaterThan(100);
    expect(clashes).toEqual([]);
  });

  it('split a folder into even parts, name them by folder and number, and never join two folders', () => {
    const shares = runtimeShares(
      [...files('test/routes', 7), ...files('test/doors/openai', 3), 'test/a.test.ts'],
      6,
    );
    expect(shares.map((share) => [share.name, share.files.length])).toEqual([
      ['test-1', 1],
      ['doors-openai-1', 3],
      ['routes-1', 4],
      ['routes-2', 3],
    ]);
    expect(shares[2]?.files).toEqual(files('test/routes', 7).slice(0, 4));
  });

  it('import each file by its path from the share, inside a describe named after it', () => {
    const share = { name: 'log-1', files: ['test/log/a.test.ts', 'test/log/b.test.ts'] };
    const source = shareSource(share, '/repo', '/repo/.cache/test-runtimes/log-1.test.ts');
    expect(source).toContain(
      'describe("test/log/a.test.ts", async () => {\n  await import("../../test/log/a.test.ts");\n});',
    );
    expect(source.indexOf('a.test.ts')).toBeLessThan(source.indexOf('b.test.ts'));
  });

  it('write a changed share, leave an unchanged one as it is, and remove one no longer made', () => {
    const dir = 'shares';
    const first = [
      { name: 'log-1', files: ['test/log/a.test.ts'] },
      { name: 'old-1', files: ['test/old/a.test.ts'] },
    ];
    expect(writeRuntimeShares(scratch, first, dir)).toEqual(['shares/log-1.test.ts', 'shares/old-1.test.ts']);
    const logPath = join(scratch, dir, 'log-1.test.ts');
    writeFileSync(logPath, readFileSync(logPath, 'utf8')); // same bytes, new mtime to compare against
    const before = statSync(logPath).mtimeMs;
    const second = [
      { name: 'log-1', files: ['test/log/a.test.ts'] },
      { name: 'new-1', files: ['test/new/a.test.ts'] },
    ];
    writeRuntimeShares(scratch, second, dir);
    expect(readdirSync(join(scratch, dir)).sort()).toEqual(['log-1.test.ts', 'new-1.test.ts']);
    expect(statSync(logPath).mtimeMs).toBe(before);
    expect(readFileSync(join(scratch, dir, 'new-1.test.ts'), 'utf8')).toContain('../test/new/a.test.ts');
  });
});
