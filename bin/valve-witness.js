#!/usr/bin/env node
// The witness (c2sp.org/tlog-witness). Its code is bin/valve-witness.ts and src/witness/, src/log/, src/encoding/ and
// src/signing/, bundled for Node 20 into dist/valve-witness.js by `npm run build:cli` (run by `npm ci` /
// `npm install`).
try {
  await import('../dist/valve-witness.js');
} catch (error) {
  if (error?.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes('dist/valve-witness.js')) {
    process.stderr.write('valve-witness: not built yet; run `npm run build:cli` in the Valve checkout\n');
    process.exit(2);
  }
  throw error;
}
