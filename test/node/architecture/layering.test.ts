import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { findCycles, folderEdges, folderOf, importGraph } from './import-graph';

// The layering of src/, checked on the import statements themselves, so it stays true as code lands.
const graph = importGraph(fileURLToPath(new URL('../../../src', import.meta.url)));

function importsFrom(folders: string[], forbidden: string[]): string[] {
  const found: string[] = [];
  for (const [from, targets] of graph) {
    if (!folders.includes(folderOf(from))) continue;
    for (const to of targets) if (forbidden.includes(folderOf(to))) found.push(`${from} -> ${to}`);
  }
  return found;
}

describe('the import graph of src/', () => {
  it('reads the tree (a walker that finds nothing would pass everything)', () => {
    expect(graph.size).toBeGreaterThan(100);
    expect(graph.get('app.ts')).toContain('errors.ts');
  });

  it('has no import cycle', () => {
    expect(findCycles(graph)).toEqual([]);
  });

  it('has no pair of folders that import each other', () => {
    const edges = folderEdges(graph);
    const pairs = [...edges].filter((edge) => {
      const [a, b] = edge.split(' -> ');
      // Top-level files (app, env, errors, index) are the composition root, not a layer.
      return a !== '.' && b !== '.' && edges.has(`${b} -> ${a}`);
    });
    expect(pairs).toEqual([]);
  });

  it('keeps model/ and encoding/ free of anything of Valve’s', () => {
    const own = [...new Set([...graph.keys()].map(folderOf))];
    expect(
      importsFrom(
        ['model'],
        own.filter((f) => f !== 'model'),
      ),
    ).toEqual([]);
    expect(
      importsFrom(
        ['encoding'],
        own.filter((f) => f !== 'encoding'),
      ),
    ).toEqual([]);
  });

  it('keeps prompt/, policy/, receipts/ and log/ away from providers, routes, middleware and storage', () => {
    expect(
      importsFrom(['prompt', 'policy', 'receipts', 'log'], ['providers', 'routes', 'middleware', 'storage']),
    ).toEqual([]);
  });
});
