// Every relative link in README.md and docs/ leads somewhere: the file exists, and an anchor names
// a heading of the file it points into (GitHub's heading ids) or an explicit id. Links inside
// code blocks and inline code are not links; web links are not fetched.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const DOCS = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

/** The text outside fenced code blocks and inline code. */
function prose(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '');
}

/** GitHub's id for a heading: lower case, punctuation dropped, spaces to hyphens; repeats get -1, -2. */
function headingIds(markdown: string): Set<string> {
  const ids = new Set<string>();
  const seen = new Map<string, number>();
  const outside = markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
  for (const m of outside.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = m[1]!
      .replace(/<[^>]+>/g, '')
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    ids.add(n === 0 ? base : `${base}-${n}`);
  }
  for (const m of markdown.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) ids.add(m[1]!);
  return ids;
}

interface Link {
  from: string;
  target: string;
}

function relativeLinks(file: string): Link[] {
  const text = prose(readFileSync(join(ROOT, file), 'utf8'));
  const targets = [...text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g), ...text.matchAll(/^\[[^\]]+\]:\s+(\S+)/gm)].map((m) => m[1]!);
  return targets.filter((t) => !/^[a-z][a-z0-9+.-]*:/i.test(t)).map((target) => ({ from: file, target }));
}

/** What is wrong with a link, or undefined. */
function broken({ from, target }: Link): string | undefined {
  const [path = '', anchor] = target.split('#', 2);
  const file = path === '' ? join(ROOT, from) : join(ROOT, dirname(from), decodeURIComponent(path));
  if (!existsSync(file)) return `${from}: ${target}: no ${relative(ROOT, file)}`;
  if (anchor === undefined || anchor === '') return undefined;
  if (!file.endsWith('.md') || statSync(file).isDirectory()) return `${from}: ${target}: an anchor into a file that is not Markdown`;
  const ids = headingIds(readFileSync(file, 'utf8'));
  return ids.has(anchor) ? undefined : `${from}: ${target}: no heading #${anchor} in ${relative(ROOT, file)}`;
}

describe('links in README.md and docs/', () => {
  it('finds the links to check', () => {
    assert.ok(DOCS.flatMap(relativeLinks).length > 50);
  });

  it('resolves every relative link and anchor', () => {
    assert.deepEqual(DOCS.flatMap(relativeLinks).map(broken).filter(Boolean), []);
  });

  it('computes heading ids as GitHub does', () => {
    const ids = headingIds('# Stopping and draining\n## The `--suspend` mode: hold, replay\n## Limits\n## Limits\n```\n# not a heading\n```\n');
    assert.deepEqual([...ids], ['stopping-and-draining', 'the---suspend-mode-hold-replay', 'limits', 'limits-1']);
  });
});
