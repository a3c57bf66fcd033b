// The runs of a replayed call, one audit record each (maybe from several instances' files, in any
// order), joined into one call for the report; the recorder's side of the link.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { AuditRecord } from '../../src/audit/record.js';
import { AuditRecorder } from '../../src/audit/recorder.js';
import { joinReplayRuns } from '../../src/report/replay-join.js';
import { testClock } from '../support/clock.js';

const T0 = Date.parse('2026-12-01T10:00:00.000Z');
const ask = (round: number, key: string) => ({ round, key, method: 'elicitation/create', elicitationMode: 'form' as const, action: 'unanswered', serverMs: 5 });

function run(n: number, endAt: number, durationMs: number, extra: Partial<AuditRecord> = {}): AuditRecord {
  return {
    ts: new Date(endAt).toISOString(),
    upstream: 'u',
    method: 'tools/call',
    target: 'lookup',
    mode: 'replay',
    rounds: n,
    durationMs,
    finalServerMs: 5,
    requests: [ask(n, `elicitation-${n}`)],
    outcome: { kind: 'let_go' },
    replay: {
      call: 'c1',
      run: n,
      fromRecord: n - 1,
      mismatched: 0,
      answered: n === 1 ? [] : [{ round: n - 1, key: `elicitation-${n - 1}`, method: 'elicitation/create', action: 'accept', fields: ['x'] }],
    },
    ...extra,
  };
}

describe('joinReplayRuns', () => {
  it('joins the runs of one call in run order, whatever the order of the records', () => {
    const last = run(3, T0 + 10_000, 20, { requests: [], rounds: 0, outcome: { kind: 'complete', isError: false } });
    const other: AuditRecord = { ...run(1, T0 + 50, 50), replay: undefined, mode: 'hold', target: 'held' };
    const joined = joinReplayRuns([run(2, T0 + 4000, 30), other, last, run(1, T0 + 100, 100)]);
    assert.equal(joined.length, 2);
    const call = joined[0]!;
    assert.equal(joined[1], other, 'other records pass through');
    assert.equal(call.outcome.kind, 'complete');
    assert.equal(call.rounds, 2);
    assert.equal(call.durationMs, 10_000, 'from the first run start to the last run end, think time included');
    assert.deepEqual(call.replayMatch, { runs: 3, fromRecord: 3, mismatched: 0 });
    assert.deepEqual(
      call.requests.map((q) => [q.key, q.action, q.fields, q.clientMs]),
      [
        ['elicitation-1', 'accept', ['x'], 4000 - 30 - 100],
        ['elicitation-2', 'accept', ['x'], 10_000 - 20 - 4000],
      ],
    );
    assert.equal(call.replay, undefined);
  });

  it('keeps the questions of a call whose last run was never retried unanswered', () => {
    const [call] = joinReplayRuns([run(1, T0, 10), run(2, T0 + 500, 10)]);
    assert.equal(call!.outcome.kind, 'let_go');
    assert.deepEqual(
      call!.requests.map((q) => q.action),
      ['accept', 'unanswered'],
    );
  });

  it('keeps calls of different upstreams apart even with the same id', () => {
    assert.equal(joinReplayRuns([run(1, T0, 10), { ...run(1, T0, 10), upstream: 'v' }]).length, 2);
  });
});

describe('AuditRecorder, replayed runs', () => {
  it('links a run to its call, describes the answers that started it and counts record matches', () => {
    const clock = testClock(T0);
    const out: AuditRecord[] = [];
    const r = new AuditRecorder({ upstream: 'u', clock, content: false, sink: (x) => out.push(x) });
    // Run 1 asks for a city and lets its call go; run 2 starts with the answer.
    const city = { requestedSchema: { properties: { city: { type: 'string' } } } };
    r.onStart({ handle: 'h1', method: 'tools/call', params: { name: 'lookup' }, mode: 'replay', replay: { call: 'c1', run: 1, answers: new Map() } });
    r.onRound({ handle: 'h1', round: 1, asked: [{ key: 'elicitation-1', method: 'elicitation/create', params: city }] });
    r.onEnd({ handle: 'h1', reason: 'let_go' });
    const answers = new Map<string, unknown>([['elicitation-1', { action: 'accept', content: { city: 'secret-city', 'planted-name': 'x' } }]]);
    r.onStart({ handle: 'h2', method: 'tools/call', params: { name: 'lookup' }, mode: 'replay', replay: { call: 'c1', run: 2, answers } });
    r.onReplay({ handle: 'h2', fromRecord: 1, mismatched: 0 });
    r.onRound({ handle: 'h2', round: 2, asked: [{ key: 'elicitation-2', method: 'elicitation/create', params: { requestedSchema: {} } }] });
    r.onEnd({ handle: 'h2', reason: 'let_go' });
    assert.deepEqual(out[1]!.replay, {
      call: 'c1',
      run: 2,
      fromRecord: 1,
      mismatched: 0,
      answered: [{ round: 1, key: 'elicitation-1', method: 'elicitation/create', action: 'accept', fields: ['city'] }],
    });
    // A run whose previous run asked on another instance: no schema here, so no names.
    r.onStart({ handle: 'h3', method: 'tools/call', params: { name: 'lookup' }, mode: 'replay', replay: { call: 'c2', run: 2, answers } });
    r.onEnd({ handle: 'h3', reason: 'completed', result: { content: [] } });
    assert.deepEqual(out[2]!.replay!.answered, [{ round: 1, key: 'elicitation-1', method: 'elicitation/create', action: 'accept' }]);
    assert.doesNotMatch(JSON.stringify(out), /planted-name/);
    out.shift();
    assert.deepEqual(out[0]!.outcome, { kind: 'let_go' });
    assert.doesNotMatch(JSON.stringify(out), /secret-city/);
  });
});
