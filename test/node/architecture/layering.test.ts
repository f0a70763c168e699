import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { findCycles, folderOf, importGraph, layerGraph } from './import-graph';

// The layering of src/ (CONTRIBUTING.md, "Layering"), checked on the import statements themselves,
// type-only imports included, so it stays true as code lands:
//
// 1. no module imports itself back, through any number of others;
// 2. the layers form no cycle of any length: a layer is a folder, or a top-level module (env.ts,
//    errors.ts); only the composition root (index.ts, app.ts, client.ts) may import every layer;
// 3. model/ and encoding/ import nothing of Valve's, and errors.ts only its code registry (JSON);
// 4. the stages (prompt/, policy/, receipts/, log/) import nothing from providers/, routes/,
//    middleware/, storage/, issuance/ or reason/: the pipeline strings them together, never the reverse;
// 5. providers/ imports only model/, encoding/ and errors.ts: an adapter knows the neutral interface
//    and its own wire format, nothing of prompts or policy;
// 6. a door (doors/: what every door shares, then one folder per door) maps a wire format onto a Reason
//    request and imports no stage that the
//    pipeline runs (prompt/, providers/, receipts/, log/, storage/, reason/): the pipeline lints,
//    renders, plans and calls; only the catalog's types (for the models list) and the plan's (to read
//    an error's exclusions) come from policy/;
// 7. only middleware/, routes/ and the top-level modules import Hono;
// 8. approvals/ decides a held tool call after its answer: it reads and writes storage/, signs with
//    receipts/, records through audit/ and checks an edit with reason/'s schema check, but calls no
//    model (providers/, prompt/, policy/) and no door; and nothing below routes/ imports it;
// 9. issuance/ (claims, leases, the log append, replays) uses storage/, log/, receipts/ and the
//    write-behind, calls no model and no stage of the pipeline, and only reason/ and routes/ import it;
//    reason/ asks it for a receipt and never reaches the receipts table, the claims or the log object
//    itself, nor env.ts.
const { modules, packages, unresolved } = importGraph(
  fileURLToPath(new URL('../../../src', import.meta.url)),
);

const compositionRoot = ['index.ts', 'app.ts', 'client.ts'];
const layers = layerGraph(modules, compositionRoot);
const own = [...new Set([...modules.keys()].map(folderOf))].filter((folder) => folder !== '.');

/** `from -> to` for each import of a module in `folders` of a module in `forbidden` (folders or top-level files). */
function importsFrom(folders: string[], forbidden: string[]): string[] {
  const found: string[] = [];
  for (const [from, targets] of modules) {
    if (!folders.includes(folderOf(from)) && !folders.includes(from)) continue;
    for (const to of targets) {
      if (forbidden.includes(folderOf(to)) || forbidden.includes(to)) found.push(`${from} -> ${to}`);
    }
  }
  return found;
}

/** `from -> to` for each import of a module in `folder` of any layer other than itself and `allowed`. */
function importsOutside(folder: string, allowed: string[]): string[] {
  const others = [...own, ...[...modules.keys()].filter((m) => folderOf(m) === '.')];
  return importsFrom(
    [folder],
    others.filter((layer) => layer !== folder && !allowed.includes(layer)),
  );
}

describe('the import graph of src/', () => {
  it('reads the tree (a walker that finds nothing would pass everything)', () => {
    expect(modules.size).toBeGreaterThan(100);
    expect(modules.get('app.ts')).toContain('errors.ts');
    // A type-only import is an edge like any other.
    expect(modules.get('middleware/require-key.ts')).toContain('env.ts');
    expect(packages.get('app.ts')).toContain('hono');
  });

  it('resolves every relative import (one it cannot resolve would drop its edge unseen)', () => {
    expect(unresolved).toEqual([]);
  });

  it('has no import cycle between modules', () => {
    expect(findCycles(modules)).toEqual([]);
  });

  it('has no cycle between layers: folders, and the top-level modules beside the composition root', () => {
    expect(layers.get('env.ts')).toBeDefined();
    expect(findCycles(layers)).toEqual([]);
  });

  it('keeps model/ and encoding/ free of anything of Valve’s, and errors.ts free of every layer', () => {
    expect(importsOutside('model', [])).toEqual([]);
    expect(importsOutside('encoding', [])).toEqual([]);
    expect(modules.get('errors.ts')).toEqual([]);
  });

  it('keeps the stages (prompt/, policy/, receipts/, log/) from reaching up into the pipeline or I/O', () => {
    expect(
      importsFrom(
        ['prompt', 'policy', 'receipts', 'log'],
        ['providers', 'routes', 'middleware', 'storage', 'issuance', 'reason'],
      ),
    ).toEqual([]);
  });

  it('keeps providers/ to the neutral model interface, encoding and the error type', () => {
    expect(importsOutside('providers', ['model', 'encoding', 'errors.ts'])).toEqual([]);
  });

  it('keeps the doors (doors/) to mapping: no stage of the pipeline, only the catalog’s and the plan’s types', () => {
    const stages = ['prompt', 'providers', 'receipts', 'log', 'storage', 'reason'];
    expect(importsFrom(['doors'], stages)).toEqual([]);
    expect(importsFrom(['doors'], ['policy'])).toEqual([
      'doors/anthropic/model-names.ts -> policy/catalog.ts',
      'doors/anthropic/models-list.ts -> policy/catalog.ts',
      'doors/context-overflow.ts -> policy/plan-types.ts',
      'doors/openai/models-list.ts -> policy/catalog.ts',
    ]);
  });

  it('keeps one door from importing another, and what they share from importing any: a door is a folder', () => {
    // doors/<name>/… is a door; doors/*.ts is what every door shares.
    const doorOf = (module: string) => /^doors\/([^/]+)\//.exec(module)?.[1] ?? 'shared';
    const found: string[] = [];
    for (const [from, targets] of modules) {
      if (folderOf(from) !== 'doors') continue;
      for (const to of targets) {
        if (folderOf(to) !== 'doors' || doorOf(to) === 'shared' || doorOf(to) === doorOf(from)) continue;
        found.push(`${from} -> ${to}`);
      }
    }
    expect(found).toEqual([]);
    expect([...modules.keys()].filter((m) => /^doors\/[^/]+\//.test(m)).map(doorOf)).toContain('anthropic');
  });

  it('keeps approvals/ to deciding held calls: no model, prompt, policy or door, and only routes/ above it', () => {
    expect(importsFrom(['approvals'], ['providers', 'prompt', 'policy', 'doors'])).toEqual([]);
    const below = own.filter((folder) => !['approvals', 'routes'].includes(folder));
    expect(importsFrom(below, ['approvals'])).toEqual([]);
  });

  it('keeps issuance/ to storage/, log/, receipts/ and the write-behind, and only reason/ and routes/ above it', () => {
    expect(modules.get('issuance/create-issuance.ts')).toContain('issuance/claim-receipt-id.ts');
    const allowed = [
      'storage',
      'log',
      'receipts',
      'background',
      'signing',
      'contracts',
      'encoding',
      'errors.ts',
    ];
    expect(importsOutside('issuance', allowed)).toEqual([]);
    const below = own.filter((folder) => !['issuance', 'reason', 'routes'].includes(folder));
    expect(importsFrom(below, ['issuance'])).toEqual([]);
  });

  it('lets reason/ reach a receipt only through issuance/: no receipts table, claims, log object or env.ts', () => {
    expect(modules.get('reason/serve-reason.ts')).toContain('issuance/create-issuance.ts');
    const receiptStorage = [
      'storage/receipts.ts',
      'storage/receipt-claims.ts',
      'storage/round-trips.ts',
      'storage/stub-by-name.ts',
    ];
    expect(importsFrom(['reason'], ['log', 'env.ts', ...receiptStorage])).toEqual([]);
  });

  it('lets only middleware/, routes/ and the top-level modules import Hono', () => {
    const found: string[] = [];
    for (const [from, specs] of packages) {
      if (['middleware', 'routes', '.'].includes(folderOf(from))) continue;
      for (const spec of specs)
        if (spec === 'hono' || spec.startsWith('hono/')) found.push(`${from} -> ${spec}`);
    }
    expect(found).toEqual([]);
  });
});
