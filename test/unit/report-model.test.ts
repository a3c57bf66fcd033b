// The report model from plain inputs: declared items joined with audit records, the questions
// grouped, the migration proposed; and the renderers' escaping and self-containment.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { AuditRecord, AuditedRequest } from '../../src/audit/record.js';
import { parseAuditLines } from '../../src/report/audit-files.js';
import { annotationAdvice, inputRequestsByRound, proposeInputs, replaySafety, schemaFromShape } from '../../src/report/migration.js';
import { barChart } from '../../src/report/svg.js';
import { buildReport, stats, type Declared } from '../../src/report/model.js';
import { renderHtml } from '../../src/report/render-html.js';
import { renderMarkdown } from '../../src/report/render-md.js';

const ask = (round: number, over: Partial<AuditedRequest> = {}): AuditedRequest => ({
  round,
  key: `elicitation-${round}`,
  method: 'elicitation/create',
  elicitationMode: 'form',
  schema: { properties: { pin: { type: 'string', required: true } } },
  action: 'accept',
  serverMs: 10,
  clientMs: 1000 * round,
  ...over,
});

const record = (target: string, requests: AuditedRequest[], over: Partial<AuditRecord> = {}): AuditRecord => ({
  ts: '2026-12-01T00:00:00.000Z',
  upstream: 'u',
  method: 'tools/call',
  target,
  mode: 'hold',
  rounds: Math.max(0, ...requests.map((r) => r.round)),
  durationMs: 5,
  finalServerMs: 3,
  requests,
  outcome: { kind: 'complete', isError: false },
  ...over,
});

const DECLARED: Declared[] = [
  {
    upstream: 'u',
    server: { name: 's', version: '1' },
    tools: [{ name: 'pay', annotations: { destructiveHint: true } }, { name: 'read', annotations: { readOnlyHint: true } }, { name: 'idle' }],
    prompts: [{ name: 'p' }],
    resources: [{ uri: 'file:///r' }],
  },
];

describe('report model', () => {
  const m = buildReport(
    DECLARED,
    [
      record('pay', [ask(1), ask(2, { method: 'sampling/createMessage', elicitationMode: undefined, schema: undefined, key: 'sampling-2' })]),
      record('pay', [ask(1, { action: 'decline' })], { outcome: { kind: 'error', code: -32603, message: 'x' } }),
      record('read', []),
      record('gone', [ask(1, { elicitationMode: 'url', schema: undefined })]),
    ],
    { files: ['a.jsonl'], skippedLines: 1 },
    new Date(0),
  );
  const item = (name: string) => m.items.find((i) => i.name === name)!;

  it('joins declared items with what the audit saw', () => {
    assert.deepEqual(
      m.items.map((i) => [i.name, i.asks]),
      [
        ['gone', 'yes'],
        ['pay', 'yes'],
        ['p', 'unknown'],
        ['file:///r', 'unknown'],
        ['idle', 'unknown'],
        ['read', 'no'],
      ],
    );
    assert.equal(item('gone').declared, false);
    assert.deepEqual(m.roundsPerCall, { '0': 1, '1': 2, '2': 1 });
    assert.deepEqual(m.audit, { files: ['a.jsonl'], records: 4, skippedLines: 1 });
  });

  it('groups the questions, counts actions, rounds and outcomes', () => {
    const pay = item('pay');
    assert.equal(pay.calls, 2);
    assert.deepEqual(pay.methods, ['elicitation/create', 'sampling/createMessage']);
    assert.deepEqual(pay.questions[0]!.actions, { accept: 1, decline: 1 });
    assert.equal(pay.questions[0]!.count, 2);
    assert.deepEqual(pay.rounds, { '1': 1, '2': 1 });
    assert.deepEqual(pay.outcomes, { complete: 1, 'error -32603': 1 });
    assert.deepEqual(pay.thinkMs, { median: 1000, p90: 2000, max: 2000 });
  });

  it('proposes the inputRequests of a migrated version, replay safety and annotations', () => {
    const pay = item('pay');
    assert.deepEqual(
      pay.migration.inputRequests.map((p) => [p.round, p.key, p.method]),
      [
        [1, 'pin', 'elicitation/create'],
        [2, 'sampling', 'sampling/createMessage'],
      ],
    );
    assert.equal(pay.migration.replay.safe, 'no');
    assert.ok(pay.migration.annotate.some((a) => a.annotation === 'idempotentHint' && /safe to repeat/.test(a.why)));
    assert.equal(item('read').migration.replay.safe, 'yes');
    assert.deepEqual(
      item('read').migration.annotate.map((a) => a.annotation),
      ['openWorldHint'],
    );
    assert.equal(item('idle').migration.replay.safe, 'unknown');
    assert.equal(item('p').migration.replay.safe, 'yes');
    assert.equal(item('gone').migration.inputRequests[0]!.key, 'url_consent');
  });
});

describe('report helpers', () => {
  it('computes stats and rebuilds schemas from shapes', () => {
    assert.equal(stats([]), undefined);
    assert.deepEqual(stats([5, 1, 3]), { median: 3, p90: 5, max: 5 });
    assert.deepEqual(
      schemaFromShape({ properties: { a: { type: 'string', format: 'email', required: true }, b: { type: 'string', enum: 3, required: false } } }),
      {
        type: 'object',
        properties: { a: { type: 'string', format: 'email' }, b: { type: 'string', enumOptions: 3 } },
        required: ['a'],
      },
    );
  });

  it('keeps proposed keys unique', () => {
    const q = { method: 'elicitation/create', elicitationMode: 'form' as const, schema: { properties: { x: { type: 'string', required: true } } }, round: 1 };
    assert.deepEqual(
      proposeInputs([q, { ...q, round: 2 }]).map((p) => p.key),
      ['x', 'x_2'],
    );
  });

  it('judges replay safety from the annotations', () => {
    assert.equal(replaySafety('tool', { destructiveHint: true, idempotentHint: true }).safe, 'yes');
    assert.equal(replaySafety('tool', undefined).safe, 'unknown');
    assert.deepEqual(annotationAdvice('prompt', undefined, true), []);
  });

  it('advises only annotations that are missing and that no declared one contradicts, each with a reason', () => {
    const names = (a: Parameters<typeof annotationAdvice>[1]) => annotationAdvice('tool', a, false).map((x) => x.annotation);
    // A destructive tool is not read-only: readOnlyHint would contradict it.
    assert.deepEqual(names({ destructiveHint: true }), ['idempotentHint', 'openWorldHint']);
    assert.deepEqual(names({ readOnlyHint: true }), ['openWorldHint']);
    assert.deepEqual(names({ readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false }), []);
    assert.deepEqual(names(undefined), ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint']);
    for (const advice of annotationAdvice('tool', undefined, true)) assert.ok(advice.why.length > 10, `${advice.annotation} says why`);
  });

  it('proposes inputRequests per round, as on the wire: no round inside', () => {
    const q = { method: 'elicitation/create', elicitationMode: 'form' as const, schema: { properties: { x: { type: 'string', required: true } } }, round: 1 };
    const rounds = inputRequestsByRound(proposeInputs([q, { ...q, round: 2 }]));
    assert.deepEqual(
      rounds.map((r) => r.round),
      [1, 2],
    );
    assert.deepEqual(Object.keys(rounds[1]!.inputRequests), ['x_2']);
    assert.deepEqual(Object.keys(rounds[1]!.inputRequests['x_2']!), ['method', 'params']);
  });

  it('says "1 call", not "1 calls", in the rounds chart', () => {
    const svg = barChart(
      'Rounds per call',
      [
        { label: '1 round', value: 1 },
        { label: '2 rounds', value: 2 },
      ],
      [' call', ' calls'],
    );
    assert.match(svg, />1 call</);
    assert.match(svg, />2 calls</);
  });

  it('skips lines that are not audit records', () => {
    const good = JSON.stringify(record('t', []));
    const r = parseAuditLines(`${good}\n{"torn":\nnot json\n{"method":"x"}\n\n${good}\n`);
    assert.equal(r.records.length, 2);
    assert.equal(r.skipped, 3);
  });

  it('skips a record that fails its schema (types, enumerations, sizes) and names it by file, line and field', () => {
    const good = record('t', [ask(1)]);
    const edited = [
      { ...good, outcome: { kind: 'error', code: '1\nprocess.exit(7)//', message: 'm' } },
      { ...good, outcome: { kind: 'exploded' } },
      { ...good, requests: [{ ...ask(1), elicitationMode: 'popup' }] },
      { ...good, requests: [{ ...ask(1), round: 1.5 }] },
      { ...good, target: 'x'.repeat(5000) },
      { ...good, resultShape: { parts: 'text' } },
      { kind: 'shadow', upstream: 'u', method: 'tools/call', differences: [] },
    ];
    const r = parseAuditLines([good, ...edited].map((x) => JSON.stringify(x)).join('\n'), 'audit.jsonl');
    assert.deepEqual(r.records, [good]);
    assert.equal(r.skipped, edited.length);
    assert.deepEqual(
      r.invalid.map((s) => `${s.file}:${s.line} ${s.why.split(':').slice(0, 2).join(':')}`),
      [
        'audit.jsonl:2 audit record: outcome.code',
        'audit.jsonl:3 audit record: outcome.kind',
        'audit.jsonl:4 audit record: requests.0.elicitationMode',
        'audit.jsonl:5 audit record: requests.0.round',
        'audit.jsonl:6 audit record: target',
        'audit.jsonl:7 audit record: resultShape.parts',
        'audit.jsonl:8 shadow record: ts',
      ],
    );
    assert.doesNotMatch(r.invalid.map((s) => s.why).join(' '), /process\.exit/, 'the values are never echoed');
  });
});

describe('report renderers', () => {
  const hostile: Declared[] = [{ upstream: 'u', tools: [{ name: '<img src=x onerror=alert(1)>|x' }], prompts: [], resources: [] }];
  const m = buildReport(hostile, [record('<img src=x onerror=alert(1)>|x', [ask(1)])], { files: [], skippedLines: 0 }, new Date(0));

  it('escapes server-defined names in HTML and Markdown tables', () => {
    const html = renderHtml(m);
    assert.doesNotMatch(html, /<img/);
    assert.match(html, /&lt;img src=x/);
    assert.match(renderMarkdown(m), /onerror=alert\(1\)&gt;\\\|x/);
  });

  it('draws three inline charts and loads nothing', () => {
    const html = renderHtml(m);
    assert.equal(html.match(/<svg /g)?.length, 3);
    assert.doesNotMatch(html, /<script|<link|https?:\/\/(?!www\.w3\.org\/2000\/svg)/);
  });
});
