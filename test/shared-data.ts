/// <reference types="vite/client" />
// Test vectors read from ../shared/data/ (beside every clone; see its README for upstreams and
// licences). They are never copied into the repository: where the folder is absent the globs are
// empty and the vector tests skip, while the known-answer tests kept inline still run. In CI
// (`CI=true`, where the folder is always present) an empty folder fails every file that imports
// this one instead, so the vectors can never stop running unnoticed.

type RawFiles = Record<string, string>;

/** Set by vitest.config.ts: true when `CI=true`. */
declare const __REQUIRE_SHARED_DATA__: boolean | undefined;

export const requireSharedData = typeof __REQUIRE_SHARED_DATA__ === 'boolean' && __REQUIRE_SHARED_DATA__;

/** The files of one vector folder keyed by their path inside it; an empty folder is an error in CI. */
export function vectorFolder(files: RawFiles, folder: string, required = requireSharedData): RawFiles {
  const prefix = `../../shared/data/${folder}/`;
  const found = Object.fromEntries(
    Object.entries(files).map(([path, text]) => [path.slice(prefix.length), text]),
  );
  if (required && Object.keys(found).length === 0) {
    throw new Error(
      `CI=true but ../shared/data/${folder}/ has no files: its vector tests would skip silently. Check out the shared data beside the repository.`,
    );
  }
  return found;
}

const relative = vectorFolder;

/** RFC 8785 vectors, keyed 'input/arrays.json', 'output/arrays.json', 'outhex/arrays.txt', … */
export const jcsFiles = relative(
  import.meta.glob<string>('../../shared/data/jcs/**', { query: '?raw', import: 'default', eager: true }),
  'jcs',
);

/** RFC 6962 proof vectors, keyed 'inclusion/1/happy-path.json', 'consistency/2/…', … */
export const merkleFiles = relative(
  import.meta.glob<string>('../../shared/data/merkle/**/*.json', {
    query: '?raw',
    import: 'default',
    eager: true,
  }),
  'merkle',
);

/** Wycheproof vectors, keyed 'ed25519_test.json', 'hkdf_sha256_test.json', 'hmac_sha256_test.json'. */
export const wycheproofFiles = relative(
  import.meta.glob<string>('../../shared/data/wycheproof/*.json', {
    query: '?raw',
    import: 'default',
    eager: true,
  }),
  'wycheproof',
);

function stringsOf(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const item of value) stringsOf(item, out);
  else if (typeof value === 'object' && value !== null)
    for (const item of Object.values(value)) stringsOf(item, out);
  return out;
}

/** The prompt-injection corpus's JSON and JSONL files (microsoft/BIPIA), keyed 'bipia/…'. */
export const injectionFiles = relative(
  import.meta.glob<string>('../../shared/data/injection/**/*.{json,jsonl}', {
    query: '?raw',
    import: 'default',
    eager: true,
  }),
  'injection',
);

/** Every string in those files. */
export const injectionCorpus: string[] = Object.entries(injectionFiles).flatMap(([path, raw]) =>
  path.endsWith('.jsonl')
    ? raw
        .split('\n')
        .filter((line) => line.trim() !== '')
        .flatMap((line) => stringsOf(JSON.parse(line)))
    : stringsOf(JSON.parse(raw)),
);
