#!/usr/bin/env node
// The auditor's CLI. Its code is bin/valve-verify.ts and src/receipts/, src/log/, src/encoding/ and
// src/signing/, bundled for Node 20 into dist/valve-verify.js by `npm run build:cli` (run by `npm ci` /
// `npm install`).
try {
  await import('../dist/valve-verify.js');
} catch (error) {
  if (error?.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes('dist/valve-verify.js')) {
    process.stderr.write('valve-verify: not built yet; run `npm run build:cli` in the Valve checkout\n');
    process.exit(2);
  }
  throw error;
}
