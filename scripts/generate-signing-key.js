#!/usr/bin/env node
// Prints a new Ed25519 private key as base64 PKCS#8, the form RECEIPT_SIGNING_KEY and LOG_SIGNING_KEY take:
//   node scripts/generate-signing-key.js | npx wrangler secret put RECEIPT_SIGNING_KEY
import { generateKeyPairSync } from 'node:crypto';

const { privateKey } = generateKeyPairSync('ed25519');
process.stdout.write(privateKey.export({ type: 'pkcs8', format: 'der' }).toString('base64'));
