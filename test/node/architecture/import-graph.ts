import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** Every module under `root` and the modules of the same tree it imports (type-only imports included). */
export function importGraph(root: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of listTs(root)) {
    const text = readFileSync(file, 'utf8');
    const targets: string[] = [];
    const pattern =
      /(?:import|export)\s[^'"]*?from\s+['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;
    for (const match of text.matchAll(pattern)) {
      const spec = match[1] ?? match[2];
      if (spec === undefined) continue;
      const target = resolveModule(dirname(file), spec);
      if (target?.startsWith(root)) targets.push(relative(root, target));
    }
    graph.set(relative(root, file), targets);
  }
  return graph;
}

function listTs(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return listTs(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

function resolveModule(from: string, spec: string): string | undefined {
  const base = resolve(from, spec);
  for (const candidate of [`${base}.ts`, join(base, 'index.ts'), base]) {
    try {
      readFileSync(candidate);
      return candidate;
    } catch {
      // try the next spelling
    }
  }
  return undefined;
}

/** The folder under src/ a module lives in (`.` for top-level files). */
export function folderOf(module: string): string {
  const slash = module.indexOf('/');
  return slash === -1 ? '.' : module.slice(0, slash);
}

/** Every import cycle between modules, each as the path that closes it. */
export function findCycles(graph: Map<string, string[]>): string[][] {
  const cycles: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string): void => {
    state.set(node, 'open');
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      const seen = state.get(next);
      if (seen === 'open') cycles.push([...stack.slice(stack.indexOf(next)), next]);
      else if (seen === undefined) visit(next);
    }
    stack.pop();
    state.set(node, 'done');
  };
  for (const node of [...graph.keys()].sort()) if (!state.has(node)) visit(node);
  return cycles;
}

/** Every `from -> to` folder edge, deduplicated. */
export function folderEdges(graph: Map<string, string[]>): Set<string> {
  const edges = new Set<string>();
  for (const [from, targets] of graph) {
    for (const to of targets) {
      const a = folderOf(from);
      const b = folderOf(to);
      if (a !== b) edges.add(`${a} -> ${b}`);
    }
  }
  return edges;
}
