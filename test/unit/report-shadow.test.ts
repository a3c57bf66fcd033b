// The report's shadow differences: audit lines of both kinds read apart, records grouped per
// tool with each distinct difference counted, rendered (escaped) in Markdown and HTML.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { auditedDifference, type ShadowRecord } from '../../src/audit/shadow-record.js';
import { parseAuditLines } from '../../src/report/audit-files.js';
import { buildReport } from '../../src/report/model.js';
import { renderHtml } from '../../src/report/render-html.js';
import { renderMarkdown } from '../../src/report/render-md.js';
import { shadowItems } from '../../src/report/shadow.js';

const shadow = (target: string, over: Partial<ShadowRecord> = {}): ShadowRecord => ({
  kind: 'shadow',
  ts: '2026-12-01T00:00:00.000Z',
  upstream: 'old',
  candidate: 'new',
  method: 'tools/call',
  target,
  outcome: 'differ',
  primaryRounds: 0,
  candidateRounds: 0,
  candidateMs: 3,
  differences: [{ path: 'content[0].text', kind: 'changed' }],
  ...over,
});

describe('report shadow differences', () => {
  it('reads shadow lines apart from call records', () => {
    const call = {
      ts: 'x',
      upstream: 'old',
      method: 'tools/call',
      target: 't',
      mode: 'hold',
      rounds: 0,
      durationMs: 1,
      finalServerMs: 1,
      requests: [],
      outcome: { kind: 'complete', isError: false },
    };
    const lines = parseAuditLines(`${JSON.stringify(call)}\n${JSON.stringify(shadow('avg'))}\n{"kind":"shadow"}\n`);
    assert.deepEqual([lines.records.length, lines.shadow.length, lines.skipped], [1, 1, 1]);
  });

  it('groups per tool and list method, counting each distinct difference and failure', () => {
    const book = {
      path: 'inputRequests',
      kind: 'extra' as const,
      question: { method: 'elicitation/create', elicitationMode: 'form' as const, schema: { properties: { time: { type: 'string', required: true } } } },
    };
    const items = shadowItems([
      shadow('avg'),
      shadow('avg'),
      shadow('avg', { outcome: 'candidate_error', differences: [], error: 'timed out' }),
      shadow('book', { differences: [book] }),
      shadow('', { method: 'tools/list', differences: [{ path: 'tools.add', kind: 'missing' }] }),
    ]);
    assert.deepEqual(
      items.map((i) => [i.method, i.name, i.differed, i.candidateErrors, i.differences.map((d) => [d.path, d.kind, d.question, d.count])]),
      [
        ['tools/call', 'avg', 2, 1, [['content[0].text', 'changed', undefined, 2]]],
        ['tools/call', 'book', 1, 0, [['inputRequests', 'extra', 'elicitation/create (form): time: string', 1]]],
        ['tools/list', 'tools/list', 1, 0, [['tools.add', 'missing', undefined, 1]]],
      ],
    );
    assert.deepEqual(items[0]!.errors, { 'timed out': 1 });
  });

  it('renders a section per tool in Markdown and HTML, escaping server-defined names', () => {
    const m = buildReport([], [], { files: [], skippedLines: 0 }, new Date(0), [shadow('<img src=x>'), shadow('avg')]);
    const md = renderMarkdown(m);
    assert.match(
      md,
      /## Shadow differences\n\n### tools\/call `<img src=x>` \(old → new\)\n\n- 1 comparison\(s\) differed, 0 candidate error\(s\)\n- content\\\[0\\\]\.text changed \(1×\)/,
    );
    const html = renderHtml(m);
    assert.match(html, /<h2>Shadow differences<\/h2>/);
    assert.match(html, /&lt;img src=x&gt;/);
    assert.doesNotMatch(html, /<img src=x>/);
    assert.doesNotMatch(renderMarkdown(buildReport([], [], { files: [], skippedLines: 0 }, new Date(0))), /Shadow differences/, 'no section without records');
  });

  it('keeps values in the audit only with --audit-content, protocol facts always', () => {
    const d = { path: 'content[0].text', kind: 'changed' as const, primary: 'secret', candidate: 'other' };
    assert.deepEqual(auditedDifference(d, false), { path: 'content[0].text', kind: 'changed' });
    assert.deepEqual(auditedDifference(d, true), d);
    assert.deepEqual(auditedDifference({ path: 'error.code', kind: 'changed', primary: -32602, candidate: -32603 }, false), {
      path: 'error.code',
      kind: 'changed',
      primary: -32602,
      candidate: -32603,
    });
  });
});
