// The Markdown report writes every value a server, the configuration or an audit file authored as
// text: hostile names put in each place it prints reach no tag, link, table cell or new block. The
// Markdown is read structurally here, the way CommonMark reads it (backslash escapes, code spans,
// fenced blocks); test/e2e/report-markdown.test.ts renders it with a real Markdown renderer.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { code, renderMarkdown, text } from '../../src/report/render-md.js';
import { hostileModel, PAYLOADS } from '../support/hostile-report.js';

/** The line's inline parts as CommonMark reads them: text outside code spans (escapes kept) and code span contents. */
function inline(line: string): { outside: string; spans: string[] } {
  let outside = '';
  const spans: string[] = [];
  let i = 0;
  while (i < line.length) {
    if (line[i] === '\\' && i + 1 < line.length) {
      outside += line.slice(i, i + 2);
      i += 2;
      continue;
    }
    if (line[i] !== '`') {
      outside += line[i];
      i++;
      continue;
    }
    const run = /^`+/.exec(line.slice(i))![0];
    // The closing run is the next run of exactly the same length.
    const close = new RegExp(`(?<!\`)${run}(?!\`)`, 'g');
    close.lastIndex = i + run.length;
    const end = close.exec(line);
    if (!end) {
      outside += run;
      i += run.length;
      continue;
    }
    spans.push(line.slice(i + run.length, end.index));
    i = end.index + run.length;
  }
  return { outside, spans };
}

/** The text a payload puts at the start of a line if a renderer honours its line breaks. */
const lineStarts = (p: string) =>
  p
    .split(/\r\n|[\r\n]/)
    .slice(1)
    .map((s) => s.trim())
    .filter(Boolean);

describe('the Markdown report escapes what it did not author', () => {
  for (const p of PAYLOADS) {
    it(`payload ${JSON.stringify(p)}`, () => {
      const md = renderMarkdown(hostileModel(p));
      const lines = md.split('\n');
      let fenced = false;
      for (const line of lines) {
        if (line.startsWith('```')) {
          assert.match(line, /^```(json)?$/, `a fence line is the renderer's own: ${line}`);
          fenced = !fenced;
          continue;
        }
        if (fenced) {
          // Fenced JSON: nothing a renderer ignoring fences could read as a tag, nothing that closes the fence.
          assert.doesNotMatch(line, /[<>`&]/, `fenced line: ${line}`);
          continue;
        }
        for (const start of lineStarts(p)) assert.ok(!line.startsWith(start), `a payload started a line: ${line}`);
        const { outside, spans } = inline(line);
        // Outside code spans: no raw tag opener, no unescaped link, emphasis or code opener.
        assert.doesNotMatch(outside, /</, `a raw < outside code spans: ${line}`);
        assert.doesNotMatch(outside.replace(/\\./g, ''), /[[\]`*_~!$]|&(?!lt;|gt;|amp;)/, `unescaped syntax: ${line}`);
        // A code span holds the payload whole (its newlines as spaces), never a part of it.
        for (const s of spans) assert.ok(!/[\r\n]/.test(s));
        // Table rows: nine columns, so ten unescaped pipes, however many the payload held.
        if (line.startsWith('|')) assert.equal(outside.replace(/\\./g, '').split('|').length - 1, 10, `table row: ${line}`);
      }
      assert.equal(fenced, false, 'every fence is closed');
      const flat = p.replace(/\r\n|[\r\n]/g, ' ');
      const spans = lines.flatMap((l) => inline(l).spans.map((s) => s.replace(/^ (.*) $/, '$1')));
      assert.ok(spans.includes(flat), 'the names are kept whole in code spans');
    });
  }

  it('text() and code() keep ordinary names readable', () => {
    assert.equal(text('yes, 2 of 3 calls (p90 14)'), 'yes, 2 of 3 calls (p90 14)');
    assert.equal(text('a|b <c> & [d]'), 'a\\|b &lt;c&gt; &amp; \\[d\\]');
    assert.equal(code('ask-name'), '`ask-name`');
    assert.equal(code('a`b'), '``a`b``');
    assert.equal(code('`x'), '`` `x ``');
  });
});
