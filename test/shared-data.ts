/// <reference types="vite/client" />
// Test vectors read from ../shared/data/ (beside every clone; see its README for upstreams and
// licences). They are never copied into the repository: where the folder is absent the globs are
// empty and the vector tests skip, while the known-answer tests kept inline still run.

type RawFiles = Record<string, string>;

function relative(files: RawFiles, folder: string): RawFiles {
  const prefix = `../../shared/data/${folder}/`;
  return Object.fromEntries(Object.entries(files).map(([path, text]) => [path.slice(prefix.length), text]));
}

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
