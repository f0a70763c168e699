import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { scratchCommand, typesDifference } from '../../../scripts/check-types.js';
import { valveOwnNames } from '../../../src/policy/provider-key-name';

const read = (path: string) => readFileSync(new URL(`../../../${path}`, import.meta.url), 'utf8');
const command = JSON.parse(read('package.json')).scripts.types as string;
const committed = read('worker-configuration.d.ts');
const scratch = '.worker-configuration.check.d.ts';

/** The committed file as the check's run of wrangler writes it: the scratch path in the header. */
const asGenerated = (text: string) =>
  text.replace(`\`${command}\``, `\`${scratchCommand(command, scratch).join(' ')}\``);

describe('the check of worker-configuration.d.ts (scripts/check-types.js)', () => {
  it('puts the scratch path first, where --env-file (a list) cannot take it for an env file', () => {
    expect(scratchCommand('wrangler types --strict-vars=false --env-file=a.env', scratch)).toEqual([
      'wrangler',
      'types',
      scratch,
      '--strict-vars=false',
      '--env-file=a.env',
    ]);
    expect(() => scratchCommand('tsc --noEmit', scratch)).toThrow('not a wrangler types command');
  });

  it('agrees with the file wrangler wrote, whose header names the scratch path', () => {
    expect(asGenerated(committed)).not.toBe(committed);
    expect(typesDifference(committed, asGenerated(committed), command, scratch)).toBeUndefined();
  });

  it('names the first line where a binding changed', () => {
    const generated = asGenerated(committed).replace(
      '\t\tDB: D1Database;\n',
      '\t\tDB: D1Database;\n\t\tCACHE: KVNamespace;\n',
    );
    const difference = typesDifference(committed, generated, command, scratch);
    expect(difference).toMatch(
      /^line \d+: committed \t\tVALVE_VERSION: string;\n {2}generated \t\tCACHE: KVNamespace;$/,
    );
  });

  it('sees a file cut short, and a runtime header from another workerd', () => {
    const lines = committed.split('\n');
    const cut = lines.slice(0, lines.length - 5).join('\n');
    expect(typesDifference(cut, asGenerated(committed), command, scratch)).toMatch(
      /committed \(end of file\)/,
    );
    const older = committed.replace(/workerd@[\d.]+/, 'workerd@1.20200101.1');
    expect(typesDifference(older, asGenerated(committed), command, scratch)).toMatch(/^line 3: /);
  });
});

describe('the secrets Env declares (scripts/secret-names.env)', () => {
  const entries = read('scripts/secret-names.env')
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => line.split('='));

  it('are read by the types script, so no developer’s .dev.vars changes the generated file', () => {
    expect(command).toContain('--env-file=scripts/secret-names.env');
    expect(committed).toContain(`running \`${command}\``);
  });

  it('are Valve’s own three, by name, never with a value', () => {
    expect(entries.map(([name]) => name)).toEqual(['ADMIN_TOKEN', 'RECEIPT_SIGNING_KEY', 'LOG_SIGNING_KEY']);
    for (const [name, value] of entries) {
      expect(valveOwnNames.has(name ?? '')).toBe(true);
      expect(value).toBe('');
      expect(committed).toContain(`\t\t${name}: string;\n`);
    }
  });
});
