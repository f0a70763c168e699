import { hasLoneSurrogate, replaceLoneSurrogates } from '../encoding/utf8';
import type { JsonValue } from './jcs';

// I-JSON (RFC 7493) as Valve applies it to committed values: no duplicate member names, no lone
// surrogates, finite numbers, integers within ±(2^53−1) (so every number of magnitude 2^53 or more is
// out, as a double that large is always an integer), and nothing but plain JSON data. Problems carry
// JSON Pointer paths only — never values, which may be confidential.

export type IJsonProblemKind =
  | 'syntax'
  | 'duplicate-key'
  | 'lone-surrogate'
  | 'lone-surrogate-in-key'
  | 'non-finite-number'
  | 'unsafe-integer'
  | 'unsupported-type'
  | 'non-plain-object'
  | 'sparse-array'
  | 'cycle';

export interface IJsonProblem {
  /** RFC 6901 JSON Pointer to the offending member or element ('' is the whole value). */
  path: string;
  problem: IJsonProblemKind;
}

export type ParsedIJson = { ok: true; value: JsonValue } | { ok: false; problems: IJsonProblem[] };

const MAX_PROBLEMS = 100;
/** One RFC 6901 reference token; a lone surrogate in a key becomes U+FFFD so the path stays printable. */
export function pointerToken(key: string | number): string {
  return replaceLoneSurrogates(String(key)).replace(/~/g, '~0').replace(/\//g, '~1');
}

function isPlainObject(value: object): boolean {
  const proto = Object.getPrototypeOf(value);
  return (proto === Object.prototype || proto === null) && Object.getOwnPropertySymbols(value).length === 0;
}

/** Every way `value` falls outside I-JSON, in document order (at most 100). Iterative, so depth is free. */
export function findIJsonProblems(value: unknown): IJsonProblem[] {
  const problems: IJsonProblem[] = [];
  const ancestors = new Set<object>();
  type Step = { value: unknown; path: string } | { leave: object } | { report: IJsonProblem };
  const stack: Step[] = [{ value, path: '' }];
  while (stack.length > 0 && problems.length < MAX_PROBLEMS) {
    const step = stack.pop() as Step;
    if ('leave' in step) {
      ancestors.delete(step.leave);
      continue;
    }
    if ('report' in step) {
      problems.push(step.report);
      continue;
    }
    const { value: v, path } = step;
    const report = (problem: IJsonProblemKind) => problems.push({ path, problem });
    if (v === null || typeof v === 'boolean') continue;
    if (typeof v === 'string') {
      if (hasLoneSurrogate(v)) report('lone-surrogate');
      continue;
    }
    if (typeof v === 'number') {
      if (!Number.isFinite(v)) report('non-finite-number');
      else if (Number.isInteger(v) && !Number.isSafeInteger(v)) report('unsafe-integer');
      continue;
    }
    if (typeof v !== 'object') {
      report('unsupported-type');
      continue;
    }
    if (ancestors.has(v)) {
      report('cycle');
      continue;
    }
    const children: Step[] = [];
    if (Array.isArray(v)) {
      if (Object.getPrototypeOf(v) !== Array.prototype) report('non-plain-object');
      for (let i = 0; i < v.length; i++) {
        if (i in v) children.push({ value: v[i], path: `${path}/${i}` });
        else children.push({ report: { path: `${path}/${i}`, problem: 'sparse-array' } });
      }
    } else if (!isPlainObject(v)) {
      report('non-plain-object');
      continue;
    } else {
      for (const [key, child] of Object.entries(v)) {
        const childPath = `${path}/${pointerToken(key)}`;
        if (hasLoneSurrogate(key))
          children.push({ report: { path: childPath, problem: 'lone-surrogate-in-key' } });
        children.push({ value: child, path: childPath });
      }
    }
    ancestors.add(v);
    stack.push({ leave: v });
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i] as Step);
  }
  return problems.slice(0, MAX_PROBLEMS);
}

type Frame =
  | { kind: 'object'; keys: Set<string>; key: string; expectKey: boolean }
  | { kind: 'array'; index: number };

function framePath(stack: Frame[]): string {
  return stack.map((f) => `/${f.kind === 'object' ? pointerToken(f.key) : f.index}`).join('');
}

/**
 * Duplicate member names in JSON text, which JSON.parse silently resolves to the last one. Names are
 * compared after unescaping ("a" and "\u0061" collide). Expects text that JSON.parse accepts.
 */
export function findDuplicateKeys(text: string): IJsonProblem[] {
  const problems: IJsonProblem[] = [];
  const stack: Frame[] = [];
  let i = 0;
  while (i < text.length && problems.length < MAX_PROBLEMS) {
    const c = text[i];
    const top = stack[stack.length - 1];
    if (c === '{') {
      stack.push({ kind: 'object', keys: new Set(), key: '', expectKey: true });
      i++;
    } else if (c === '[') {
      stack.push({ kind: 'array', index: 0 });
      i++;
    } else if (c === '}' || c === ']') {
      stack.pop();
      i++;
    } else if (c === ',') {
      if (top?.kind === 'object') top.expectKey = true;
      else if (top?.kind === 'array') top.index++;
      i++;
    } else if (c === '"') {
      let end = i + 1;
      while (end < text.length && text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      if (top?.kind === 'object' && top.expectKey) {
        const key = JSON.parse(text.slice(i, end + 1)) as string;
        top.key = key;
        top.expectKey = false;
        if (top.keys.has(key)) problems.push({ path: framePath(stack), problem: 'duplicate-key' });
        top.keys.add(key);
      }
      i = end + 1;
    } else {
      i++; // whitespace, ':', and the characters of numbers and literals
    }
  }
  return problems;
}

/** JSON.parse plus the I-JSON checks, including the duplicate names JSON.parse cannot report. */
export function parseIJson(text: string): ParsedIJson {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    // The SyntaxError message quotes the input, so it is dropped.
    return { ok: false, problems: [{ path: '', problem: 'syntax' }] };
  }
  const problems = [...findDuplicateKeys(text), ...findIJsonProblems(value)].slice(0, MAX_PROBLEMS);
  return problems.length === 0 ? { ok: true, value: value as JsonValue } : { ok: false, problems };
}
