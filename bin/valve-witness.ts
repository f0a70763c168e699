import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { trustRootSchema } from '../src/contracts/trust-root';
import { escapeControlCharacters } from '../src/encoding/escape-control-characters';
import { createCosigner, formatCosignerKey } from '../src/log/cosignature';
import { parseVerifierKey } from '../src/log/signed-note';
import { generateEd25519Pkcs8 } from '../src/signing/keys';
import { Witness } from '../src/witness/witness';
import { type ParsedArgs, parseArgs, UsageError } from './cli/args';
import { readJsonFile } from './cli/read-json';
import { fileWitnessStore } from './cli/witness-state';

// valve-witness: a small C2SP tlog-witness (c2sp.org/tlog-witness) with its own key and its own record
// of the latest checkpoint it cosigned for each log. A Valve deployment pushes every new checkpoint of
// each shard to it (LOG_WITNESSES); it cosigns only what extends what it cosigned before.

const usage = `usage:
  valve-witness --name <name> --key <key-file> --state <state.json>
                (--log <log-verifier-key> ... | --trust-root <root.json>) [--host <host>] [--port <port>]
--key: the witness's Ed25519 private key (base64 PKCS#8); created, readable by you only, if absent
--log: a log's C2SP verifier key (GET /v1/trust-root lists one per shard); repeat for each log
--trust-root: witness every log a Valve trust root lists (restart the witness when shards are added)
prints one JSON line when listening: {"url", "name", "verifierKey", "logs"}; the deployment's
  LOG_WITNESSES takes "<verifierKey> <url>"
`;

const MAX_BODY_BYTES = 64 * 1024;

async function witnessOf(args: ParsedArgs): Promise<Witness> {
  const name = args.options.get('name');
  const keyPath = args.options.get('key');
  const statePath = args.options.get('state');
  if (name === undefined || keyPath === undefined || statePath === undefined) {
    throw new UsageError('--name, --key and --state are required');
  }
  const logs = [...(args.repeated.get('log') ?? [])];
  const rootPath = args.options.get('trust-root');
  if (rootPath !== undefined) {
    const root = trustRootSchema.safeParse(readJsonFile(rootPath, 'trust root'));
    if (!root.success) throw new UsageError(`the trust root ${rootPath} is not a Valve trust root`);
    logs.push(...root.data.logs.map((log) => log.verifierKey));
  }
  if (logs.length === 0) throw new UsageError('name at least one log: --log <verifier key> or --trust-root');
  for (const vkey of logs) {
    const parsed = parseVerifierKey(vkey);
    if (!parsed.ok) throw new UsageError(`log key ${vkey}: ${parsed.reason}`);
  }
  let key = existsSync(keyPath) ? readFileSync(keyPath, 'utf8').trim() : '';
  if (key === '') {
    key = await generateEd25519Pkcs8();
    writeFileSync(keyPath, `${key}\n`, { mode: 0o600, flag: 'wx' });
  }
  let cosigner: Awaited<ReturnType<typeof createCosigner>>;
  try {
    cosigner = await createCosigner(name, key);
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  try {
    return new Witness(cosigner, logs, fileWitnessStore(statePath));
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

async function readBody(req: IncomingMessage): Promise<string | null> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of req) {
    total += (chunk as Buffer).length;
    if (total > MAX_BODY_BYTES) return null;
    chunks.push(chunk as Buffer);
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    return '';
  }
}

function send(res: ServerResponse, status: number, body: string, contentType = 'text/plain; charset=utf-8') {
  res.writeHead(status, { 'content-type': contentType, 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

async function serve(witness: Witness, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const path = new URL(req.url ?? '/', 'http://witness').pathname;
  const vkey = formatCosignerKey(witness.signer.name, witness.signer.publicKey);
  if (path === '/') {
    if (req.method !== 'GET') return send(res, 405, 'GET only\n');
    const info = { name: witness.signer.name, verifierKey: vkey, logs: witness.origins() };
    return send(res, 200, `${JSON.stringify(info)}\n`, 'application/json');
  }
  if (path !== '/add-checkpoint') return send(res, 404, 'this witness serves POST /add-checkpoint\n');
  if (req.method !== 'POST') return send(res, 405, 'add-checkpoint takes POST\n');
  const body = await readBody(req);
  if (body === null) return send(res, 413, `a request body is at most ${MAX_BODY_BYTES} bytes\n`);
  const answer = await witness.addCheckpoint(body);
  send(res, answer.status, answer.body, answer.contentType);
}

async function main(argv: readonly string[]): Promise<number> {
  if (argv[0] === '--help' || argv[0] === 'help') {
    process.stdout.write(usage);
    return 0;
  }
  const args = parseArgs(argv, []);
  const witness = await witnessOf(args);
  const host = args.options.get('host') ?? '127.0.0.1';
  const port = Number(args.options.get('port') ?? '8790');
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError('--port is 0 to 65535');
  const server = createServer((req, res) => {
    serve(witness, req, res).catch((error: unknown) => {
      process.stderr.write(`valve-witness: ${escapeControlCharacters(String(error))}\n`);
      if (!res.headersSent) send(res, 500, 'the witness could not answer\n');
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  const address = server.address();
  const bound = typeof address === 'object' && address !== null ? address.port : port;
  const info = {
    url: `http://${host}:${bound}`,
    name: witness.signer.name,
    verifierKey: formatCosignerKey(witness.signer.name, witness.signer.publicKey),
    logs: witness.origins(),
  };
  process.stdout.write(`${JSON.stringify(info)}\n`);
  const stop = () => server.close(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  return 0;
}

try {
  await main(process.argv.slice(2));
} catch (error) {
  if (!(error instanceof UsageError)) throw error;
  process.stderr.write(`valve-witness: ${escapeControlCharacters(error.message)}\n${usage}`);
  process.exitCode = 2;
}
