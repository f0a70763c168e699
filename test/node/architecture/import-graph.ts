import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

/** What the modules under a root import: each other (type-only imports included), and packages. */
export interface ImportGraph {
  /** Every module and the modules of the same tree it imports. */
  modules: Map<string, string[]>;
  /** Every module and the packages it imports (`hono`, `hono/request-id`, `cloudflare:workers`). */
  packages: Map<string, string[]>;
  /** Relative imports that name no file: a walker that drops them would miss their edges. */
  unresolved: string[];
}

// `import … from`, `import type … from`, `export … from`, a bare `import '…'`, and `import('…')`.
const importPattern =
  /(?:^|[\s;])(?:import|export)\s(?:[^'"]*?\sfrom\s*)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

/** Reads every `.ts` module under `root` and what it imports. */
export function importGraph(root: string): ImportGraph {
  const modules = new Map<string, string[]>();
  const packages = new Map<string, string[]>();
  const unresolved: string[] = [];
  for (const file of listTs(root)) {
    const text = readFileSync(file, 'utf8');
    const own: string[] = [];
    const external: string[] = [];
    for (const match of text.matchAll(importPattern)) {
      const spec = match[1] ?? match[2];
      if (spec === undefined) continue;
      const name = relative(root, file);
      if (!spec.startsWith('.')) {
        external.push(spec);
        continue;
      }
      const target = resolveModule(dirname(file), spec);
      if (target === undefined) unresolved.push(`${name} -> ${spec}`);
      else if (target.startsWith(root + sep) && target.endsWith('.ts')) own.push(relative(root, target));
    }
    modules.set(relative(root, file), own);
    packages.set(relative(root, file), external);
  }
  return { modules, packages, unresolved };
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

/** Every import cycle between nodes, each as the path that closes it (at least one per cycle there is). */
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

/**
 * The graph between layers: a layer is a folder, or a top-level module other than the composition
 * root (whose modules are left out, since they import every layer by design).
 */
export function layerGraph(modules: Map<string, string[]>, compositionRoot: string[]): Map<string, string[]> {
  const layerOf = (module: string) => (folderOf(module) === '.' ? module : folderOf(module));
  const layers = new Map<string, string[]>();
  for (const [from, targets] of modules) {
    if (compositionRoot.includes(from)) continue;
    const a = layerOf(from);
    const edges = layers.get(a) ?? [];
    layers.set(a, edges);
    for (const to of targets) {
      const b = layerOf(to);
      if (a !== b && !edges.includes(b)) edges.push(b);
    }
  }
  return layers;
}
