// The Markdown report writes every value a server, the configuration or an audit file authored as
// text: hostile names put in each place it prints reach no tag, link, table cell or new block. The
// Markdown is read structurally here, the way CommonMark reads it (backslash escapes, code spans,
// fenced blocks); test/e2e/report-markdown.test.ts renders it with a real Markdown renderer.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { AuditRecord } from '../../src/audit/record.js';
import { buildReport, type Declared, type ReportModel } from '../../src/report/model.js';
import { code, renderMarkdown, text } from '../../src/report/render-md.js';

const PAYLOADS = [
  '<img src=x onerror=alert(1)>',
  '</td><script>alert(2)</script>',
  'a`b``c` <b>code</b> `',
  'cell|break|<i>x</i>',
  '[click](javascript:alert(3))',
  '![pic](javascript:alert(4))',
  'line\n# heading\n<script>alert(5)</script>',
  'one\r\n- item\r\n| a | b |\r\n| :-- | :-- |',
  '&lt;img src=x onerror=alert(6)&gt;',
  '<javascript:alert(7)>',
  '*em* _em_ ~~del~~ $x$ \\`',
  '```\n<script>alert(8)</script>\n```',
];

/** A model with payload `p` in every place the Markdown prints a value it did not author. */
function hostileModel(p: string): ReportModel {
  const declared: Declared[] = [{ upstream: p, server: { name: p, version: p }, tools: [{ name: p }], prompts: [], resources: [], error: p }];
  const record: AuditRecord = {
    ts: '2026-12-01T00:00:00.000Z',
    upstream: p,
    method: 'tools/call',
    target: p,
    mode: p,
    rounds: 1,
    durationMs: 5,
    finalServerMs: 3,
    requests: [
      {
        round: 1,
        key: p,
        method: 'elicitation/create',
        elicitationMode: 'form',
        schema: { properties: { [p]: { type: p, format: p, required: true } } },
        action: p,
        serverMs: 10,
        clientMs: 20,
      },
    ],
    outcome: { kind: 'complete', isError: false },
    rootsRound: true,
  };
  const m = buildReport(declared, [record], { files: [p], skippedLines: 0 }, new Date(0), [], [p]);
  m.shadow = [
    {
      upstream: p,
      candidate: p,
      method: p,
      name: p,
      differed: 1,
      candidateErrors: 1,
      errors: { [p]: 1 },
      differences: [{ path: p, kind: p, question: p, count: 1 }],
    },
  ];
  return m;
}

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
