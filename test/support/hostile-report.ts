// Hostile names for the report's renderers: payloads that break out of Markdown or HTML, and a
// report model with one of them in every place a renderer prints a value it did not author.
import type { AuditRecord } from '../../src/audit/record.js';
import { buildReport, type Declared, type ReportModel } from '../../src/report/model.js';

export const PAYLOADS = [
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
export function hostileModel(p: string): ReportModel {
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
