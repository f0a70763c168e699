// A small argv parser: positionals, `--name value`, `--name=value`, and boolean flags.

export interface ParsedArgs {
  positionals: string[];
  /** The last value of each option. */
  options: Map<string, string>;
  /** Every value of each option, in order, for the ones that may be given more than once. */
  repeated: Map<string, string[]>;
  flags: Set<string>;
}

export function parseArgs(argv: readonly string[], booleans: readonly string[]): ParsedArgs {
  const positionals: string[] = [];
  const options = new Map<string, string>();
  const repeated = new Map<string, string[]>();
  const set = (name: string, value: string) => {
    options.set(name, value);
    repeated.set(name, [...(repeated.get(name) ?? []), value]);
  };
  const flags = new Set<string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (!arg.startsWith('--')) {
      positionals.push(arg);
      continue;
    }
    const [name, inline] = arg.slice(2).split(/=(.*)/s, 2) as [string, string | undefined];
    if (booleans.includes(name)) flags.add(name);
    else if (inline !== undefined) set(name, inline);
    else {
      const value = argv[i + 1];
      if (value === undefined) throw new UsageError(`--${name} needs a value`);
      set(name, value);
      i++;
    }
  }
  return { positionals, options, repeated, flags };
}

export class UsageError extends Error {}
