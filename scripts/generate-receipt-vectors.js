#!/usr/bin/env node
// Writes the receipt test vectors (test/vectors/receipts/, described in docs/receipt-format.md) from
// scripts/receipt-vectors/, which issues, discloses and tampers with receipts using Valve's own code.
// The TypeScript is bundled by esbuild for Node and run; the folder is emptied first, so a vector that
// is no longer generated does not linger. Deterministic: the same bytes on every run.
//   node scripts/generate-receipt-vectors.js
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

const result = await build({
  entryPoints: [join(root, 'scripts', 'receipt-vectors', 'build-receipt-vectors.ts')],
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  write: false,
  logLevel: 'warning',
});
const scratch = mkdtempSync(join(tmpdir(), 'valve-vectors-'));
try {
  const bundled = join(scratch, 'build-receipt-vectors.mjs');
  writeFileSync(bundled, result.outputFiles[0].text);
  const { buildReceiptVectors, VECTORS_DIR } = await import(pathToFileURL(bundled).href);
  const files = await buildReceiptVectors();
  const out = join(root, VECTORS_DIR);
  rmSync(out, { recursive: true, force: true });
  for (const [path, text] of files) {
    mkdirSync(dirname(join(out, path)), { recursive: true });
    writeFileSync(join(out, path), text);
  }
  process.stdout.write(`wrote ${files.size} files to ${VECTORS_DIR}\n`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
