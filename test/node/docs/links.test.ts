import { existsSync, statSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';
import { anchors, documentFiles, links, readDocument, repoRoot } from './markdown';

// Every relative link in README.md, CONTRIBUTING.md and docs/*.md leads to a file of this repository,
// and every #anchor to a heading (or id) of its target, as GitHub renders it.

interface Repo {
  exists(path: string): boolean;
  isFile(path: string): boolean;
  read(path: string): string;
}

const onDisk: Repo = {
  exists: (path) => existsSync(join(repoRoot, path)),
  isFile: (path) => statSync(join(repoRoot, path)).isFile(),
  read: (path) => readDocument(path),
};

/** What is wrong with each link of `file`, as `file:line: target: problem`. */
function brokenLinks(file: string, markdown: string, repo: Repo): string[] {
  const problems: string[] = [];
  for (const { target, line } of links(markdown)) {
    const where = `${file}:${line}: ${target}`;
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:
    if (target.startsWith('//')) continue;
    const [rawPath = '', anchor] = target.split('#', 2);
    const path = rawPath === '' ? file : normalize(join(dirname(file), decodeURIComponent(rawPath)));
    if (path.startsWith('..')) {
      problems.push(`${where}: leaves the repository (GitHub cannot show it)`);
      continue;
    }
    const clean = path.replace(/\/$/, '');
    if (!repo.exists(clean)) {
      problems.push(`${where}: no such file`);
      continue;
    }
    if (anchor === undefined) continue;
    if (!clean.endsWith('.md') || !repo.isFile(clean)) {
      problems.push(`${where}: an anchor into a file that is not Markdown`);
      continue;
    }
    if (!anchors(repo.read(clean)).has(anchor)) problems.push(`${where}: ${clean} has no heading #${anchor}`);
  }
  return problems;
}

describe('links in the documentation', () => {
  it.each(documentFiles())('every relative link and anchor in %s resolves', (file) => {
    expect(brokenLinks(file, readDocument(file), onDisk)).toEqual([]);
  });

  it('catches a missing file, a missing anchor and a link out of the repository', () => {
    const markdown = [
      '# Title',
      '## Second `heading`: with, punctuation!',
      'See [ok](#second-heading-with-punctuation), [gone](#nowhere), [file](other.md),',
      '[anchor](../README.md#no-such-heading), [out](../../elsewhere.md), [web](https://example.com),',
      '`[code](ignored.md)`.',
      '```md',
      '[fenced](ignored-too.md)',
      '```',
    ].join('\n');
    const repo: Repo = {
      exists: (path) => path === 'README.md' || path === 'docs/page.md',
      isFile: () => true,
      read: (path) => (path === 'README.md' ? '# Valve\n## Documentation\n' : markdown),
    };
    expect(brokenLinks('docs/page.md', markdown, repo)).toEqual([
      'docs/page.md:3: #nowhere: docs/page.md has no heading #nowhere',
      'docs/page.md:3: other.md: no such file',
      'docs/page.md:4: ../README.md#no-such-heading: README.md has no heading #no-such-heading',
      'docs/page.md:4: ../../elsewhere.md: leaves the repository (GitHub cannot show it)',
    ]);
  });

  it('numbers repeated headings as GitHub does', () => {
    expect([...anchors('## Usage\n### Usage\n## Usage\n')]).toEqual(['usage', 'usage-1', 'usage-2']);
  });
});
