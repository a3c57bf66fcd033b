// The Markdown report rendered by a real CommonMark renderer (markdown-it-py, with raw HTML on and
// GFM tables, as many viewers render it): with a hostile name in every place the report prints
// one, the HTML holds only the report's own tags, no attribute, no link, and tables keep their
// nine columns. markdown-it-py comes with the fastmcp4 Python stack; without it the test is SKIPPED.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { renderMarkdown } from '../../src/report/render-md.js';
import { hostileModel, PAYLOADS } from '../support/hostile-report.js';
import { pythonOf } from '../support/python.js';

const python = pythonOf('fastmcp4', 'test/e2e/report-markdown.test.ts');

const RENDER = `
import sys
from markdown_it import MarkdownIt
md = MarkdownIt('commonmark', {'html': True}).enable(['table', 'strikethrough'])
sys.stdout.write(md.render(sys.stdin.read()))
`;

/** The tags the report's own Markdown makes. */
const OWN = new Set(['h1', 'h2', 'h3', 'p', 'ul', 'li', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'code', 'pre']);

describe('the Markdown report, rendered', { skip: python === undefined && 'markdown-it-py is not installed (SKIPPED line above)' }, () => {
  for (const p of PAYLOADS) {
    it(`payload ${JSON.stringify(p)}: no live tag`, () => {
      const r = spawnSync(python!, ['-c', RENDER], { input: renderMarkdown(hostileModel(p)), encoding: 'utf8', timeout: 30_000 });
      assert.equal(r.status, 0, r.stderr);
      const html = r.stdout;
      const tags = [...html.matchAll(/<\/?([A-Za-z][\w-]*)([^>]*)>/g)];
      assert.deepEqual([...new Set(tags.map((t) => t[1]!.toLowerCase()).filter((t) => !OWN.has(t)))], [], 'only the report’s own tags');
      assert.deepEqual(
        tags.filter((t) => t[2] !== '' && !/^ class="language-json"$/.test(t[2]!)).map((t) => t[0]),
        [],
        'no attribute (src, onerror, href)',
      );
      for (const row of html.split('<tr>').slice(1)) assert.equal(row.match(/<t[hd]>/g)?.length, 9, `a table row: ${row}`);
    });
  }
});
