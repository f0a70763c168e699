import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

// Which Workers test files need a runtime with bindings. Starting workerd (one Miniflare per file) costs
// about 3 s a file; a file that never touches the runtime's bindings, storage or the Worker itself (it
// imports neither `cloudflare:test` nor `cloudflare:workers`, directly or through a test helper) tests
// pure modules and shares one runtime with the others like it. A file that reaches bindings shares a
// runtime and its storage only with a few files of its own folder (test/runtime-shares.ts). The split is
// read from the imports on every run, so a file that starts using `env` moves without anyone editing a
// list.

const runtimeModules =
  /from\s+['"]cloudflare:(test|workers)['"]|import\s*\(\s*['"]cloudflare:(test|workers)['"]/;
const relativeImport = /(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g;

function resolveImport(fromFile: string, specifier: string): string | undefined {
  const base = resolve(dirname(fromFile), specifier);
  for (const candidate of [base, `${base}.ts`, join(base, 'index.ts')]) {
    if (candidate.endsWith('.ts') && existsSync(candidate)) return candidate;
  }
  return undefined;
}

/** True when the file, or a file under `testDir` it imports, imports the runtime's own modules. */
function reachesRuntime(file: string, testDir: string, seen: Map<string, boolean>): boolean {
  const known = seen.get(file);
  if (known !== undefined) return known;
  seen.set(file, false); // an import cycle adds nothing
  const source = readFileSync(file, 'utf8');
  let reaches = runtimeModules.test(source);
  for (const match of source.matchAll(relativeImport)) {
    if (reaches) break;
    const target = resolveImport(file, match[1] ?? '');
    if (target?.startsWith(testDir)) reaches = reachesRuntime(target, testDir, seen);
  }
  seen.set(file, reaches);
  return reaches;
}

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(path);
    return entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** The Workers test files (outside test/node/) split by whether they need a runtime of their own, as paths relative to `root`. */
export function workersTestGroups(root: string): { own: string[]; shared: string[] } {
  const testDir = join(root, 'test');
  const nodeDir = join(testDir, 'node');
  const seen = new Map<string, boolean>();
  const own: string[] = [];
  const shared: string[] = [];
  for (const file of testFiles(testDir)) {
    if (file.startsWith(`${nodeDir}/`)) continue;
    (reachesRuntime(file, testDir, seen) ? own : shared).push(relative(root, file));
  }
  return { own: own.sort(), shared: shared.sort() };
}
