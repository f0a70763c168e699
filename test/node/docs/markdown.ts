import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

// What the docs tests read in a Markdown file: its fenced blocks, its links and its headings' anchors,
// the way GitHub renders them.

export const repoRoot = join(import.meta.dirname, '../../..');

/** The documents a newcomer reads: README.md, CONTRIBUTING.md when there is one, and docs/*.md. */
export function documentFiles(): string[] {
  const docs = readdirSync(join(repoRoot, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`);
  return ['README.md', 'CONTRIBUTING.md', ...docs].filter((file) => existsSync(join(repoRoot, file)));
}

export function readDocument(file: string): string {
  return readFileSync(join(repoRoot, file), 'utf8');
}

export interface FencedBlock {
  /** The info string's first word, lowercased: `sh`, `json`, `js`… ('' when untagged). */
  lang: string;
  text: string;
  /** 1-based line of the opening fence. */
  line: number;
  /** The reason of a `<!-- not run: … -->` comment right before the block, if any. */
  notRun?: string;
}

const fence = /^(\s*)(`{3,}|~{3,})\s*([^`\s]*)/;

export function fencedBlocks(markdown: string): FencedBlock[] {
  const lines = markdown.split('\n');
  const blocks: FencedBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = fence.exec(lines[i] ?? '');
    if (!open) continue;
    const marks = open[2] ?? '```';
    const indent = (open[1] ?? '').length;
    let end = i + 1;
    while (end < lines.length && !(lines[end] ?? '').trim().startsWith(marks)) end++;
    const text = lines
      .slice(i + 1, end)
      .map((line) => line.slice(Math.min(indent, line.length - line.trimStart().length)))
      .join('\n');
    let before = i - 1;
    while (before >= 0 && (lines[before] ?? '').trim() === '') before--;
    const marker = /^<!--\s*not run:\s*(.*?)\s*-->$/.exec((lines[before] ?? '').trim());
    blocks.push({
      lang: (open[3] ?? '').toLowerCase(),
      text,
      line: i + 1,
      ...(marker && { notRun: marker[1] ?? '' }),
    });
    i = end;
  }
  return blocks;
}

/** The document's lines with its fenced blocks blanked (and its inline code, unless kept). */
function prose(markdown: string, keepCode = false): string[] {
  const lines = markdown.split('\n');
  const out: string[] = [];
  let inFence: string | undefined;
  for (const line of lines) {
    const open = fence.exec(line);
    if (inFence !== undefined) {
      if (line.trim().startsWith(inFence)) inFence = undefined;
      out.push('');
    } else if (open) {
      inFence = open[2];
      out.push('');
    } else {
      out.push(keepCode ? line : line.replace(/(`+)(?:(?!\1).)+\1/g, (span) => ' '.repeat(span.length)));
    }
  }
  return out;
}

export interface Link {
  target: string;
  line: number;
}

/** Inline links and images, `[text](target)` and `<a href="target">`, outside code. */
export function links(markdown: string): Link[] {
  const found: Link[] = [];
  prose(markdown).forEach((line, i) => {
    for (const match of line.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      found.push({ target: match[1] ?? '', line: i + 1 });
    }
    for (const match of line.matchAll(/<a\s[^>]*href="([^"]+)"/g)) {
      found.push({ target: match[1] ?? '', line: i + 1 });
    }
  });
  return found;
}

/** GitHub's anchor for a heading's text (github-slugger): lowercase, punctuation dropped, spaces to `-`. */
export function slug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/[`*]/g, '');
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
    .replace(/ /g, '-');
}

/** Every anchor a document offers: its headings' slugs (repeats numbered as GitHub numbers them), and ids. */
export function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const found = new Set<string>();
  for (const line of prose(markdown, true)) {
    const heading = /^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) {
      const base = slug(heading[1] ?? '');
      const count = seen.get(base) ?? 0;
      seen.set(base, count + 1);
      found.add(count === 0 ? base : `${base}-${count}`);
    }
    for (const match of line.matchAll(/<a\s[^>]*(?:id|name)="([^"]+)"/g)) found.add(match[1] ?? '');
  }
  return found;
}
