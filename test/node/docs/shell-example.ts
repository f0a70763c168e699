// A fenced shell example, read as a shell would read it, far enough to run its curl commands with
// fetch: quotes, `\` line continuations, comments, `$VAR` and the two `$(…)` the docs use to read
// the development key and admin token. Anything else (a pipe, a redirect, another program) makes
// the block one that cannot run here, and the docs must mark it `<!-- not run: … -->`.

export interface Placeholders {
  /** The base URL the docs write, replaced by the test Valve's. */
  docsUrl: string;
  url: string;
  vars: Record<string, string>;
  /** `$(…)` the docs use, by their exact text. */
  substitutions: Record<string, string>;
  /** Other literal placeholders in a URL (`key_…`), by their exact text. */
  literals: Record<string, string>;
}

export interface ShellCommand {
  argv: string[];
  /** From a `# → 201` comment after the command: the status it answers. */
  expectStatus?: number;
}

class NotRunnable extends Error {}

/** The commands of a block; throws when the block is not one this reader can run. */
export function parseShell(text: string, placeholders: Placeholders): ShellCommand[] {
  const vars = { ...placeholders.vars };
  const commands: ShellCommand[] = [];
  let argv: string[] = [];
  let token: string | undefined;
  const endToken = () => {
    if (token !== undefined) argv.push(token);
    token = undefined;
  };
  const endCommand = () => {
    endToken();
    if (argv.length === 0) return;
    const assignment = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)=(.*)$/s.exec(argv.join(' '));
    if (assignment && (argv.length === 1 || (argv.length === 2 && argv[0] === 'export'))) {
      vars[assignment[1] ?? ''] = assignment[2] ?? '';
    } else {
      commands.push({ argv });
    }
    argv = [];
  };
  const expand = (name: string) => {
    const value = vars[name];
    if (value === undefined) throw new NotRunnable(`$${name} is not a variable the docs define`);
    return value;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (c === '\\' && text[i + 1] === '\n') {
      i++;
      continue;
    }
    if (c === ' ' || c === '\t') {
      endToken();
      continue;
    }
    if (c === '\n' || c === ';') {
      if (c === ';') throw new NotRunnable('a `;`');
      endCommand();
      continue;
    }
    if (c === '#' && token === undefined) {
      const end = text.indexOf('\n', i);
      const comment = text.slice(i, end === -1 ? undefined : end);
      const status = /^#\s*→\s*(\d{3})\b/.exec(comment);
      endCommand();
      const last = commands.at(-1);
      if (status && last) last.expectStatus = Number(status[1]);
      i = end === -1 ? text.length : end - 1;
      continue;
    }
    if ('|&<>`'.includes(c)) throw new NotRunnable(`a \`${c}\``);
    if (c === "'") {
      const end = text.indexOf("'", i + 1);
      token = (token ?? '') + text.slice(i + 1, end);
      i = end;
      continue;
    }
    if (c === '"') {
      let j = i + 1;
      let out = '';
      while (j < text.length && text[j] !== '"') {
        if (text[j] === '\\' && '"\\$`'.includes(text[j + 1] ?? '')) {
          out += text[j + 1];
          j += 2;
        } else if (text[j] === '$') {
          const [value, next] = dollar(text, j, expand, placeholders);
          out += value;
          j = next;
        } else {
          out += text[j];
          j++;
        }
      }
      token = (token ?? '') + out;
      i = j;
      continue;
    }
    if (c === '$') {
      const [value, next] = dollar(text, i, expand, placeholders);
      token = (token ?? '') + value;
      i = next - 1;
      continue;
    }
    if (c === '\\') {
      token = (token ?? '') + (text[i + 1] ?? '');
      i++;
      continue;
    }
    token = (token ?? '') + c;
  }
  endCommand();
  return commands;
}

/** `$NAME`, `${NAME}` or `$(…)` at `i`: its value and the index after it. */
function dollar(
  text: string,
  i: number,
  expand: (name: string) => string,
  placeholders: Placeholders,
): [string, number] {
  if (text[i + 1] === '(') {
    const end = text.indexOf(')', i);
    const inner = text.slice(i + 2, end);
    const value = placeholders.substitutions[inner];
    if (value === undefined) throw new NotRunnable(`$(${inner})`);
    return [value, end + 1];
  }
  const braced = /^\$\{([A-Za-z_][A-Za-z0-9_]*)\}/.exec(text.slice(i));
  if (braced) return [expand(braced[1] ?? ''), i + braced[0].length];
  const plain = /^\$([A-Za-z_][A-Za-z0-9_]*)/.exec(text.slice(i));
  if (plain) return [expand(plain[1] ?? ''), i + plain[0].length];
  return ['$', i + 1];
}

export function isNotRunnable(error: unknown): error is Error {
  return error instanceof NotRunnable;
}

export interface CurlRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string;
}

/** A curl command line as a fetch request, with the docs' URL and placeholders replaced. */
export function curlRequest(argv: string[], placeholders: Placeholders): CurlRequest {
  if (argv[0] !== 'curl') throw new NotRunnable(`runs \`${argv[0]}\``);
  const headers: Record<string, string> = {};
  let url: string | undefined;
  let method: string | undefined;
  let body: string | undefined;
  for (let i = 1; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (/^-[sSNf]+$/.test(arg)) continue;
    if (arg === '-X' || arg === '--request') method = argv[++i];
    else if (arg === '-H' || arg === '--header') {
      const header = argv[++i] ?? '';
      const colon = header.indexOf(':');
      headers[header.slice(0, colon).trim().toLowerCase()] = header.slice(colon + 1).trim();
    } else if (arg === '-d' || arg === '--data' || arg === '--data-raw') body = argv[++i];
    else if (arg.startsWith('-')) throw new NotRunnable(`curl ${arg}`);
    else url = arg;
  }
  if (url === undefined) throw new NotRunnable('curl without a URL');
  if (!url.startsWith(placeholders.docsUrl)) throw new NotRunnable(`a URL not of a local Valve: ${url}`);
  let local = placeholders.url + url.slice(placeholders.docsUrl.length);
  for (const [literal, value] of Object.entries(placeholders.literals))
    local = local.replaceAll(literal, value);
  if (body !== undefined && headers['content-type'] === undefined) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
  }
  return { url: local, method: method ?? (body === undefined ? 'GET' : 'POST'), headers, body };
}
