// Following the bridge's events of one upstream into requests to replay against the candidate,
// and the live view's shadow panel state.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { LiveInteractions } from '../../src/audit/live.js';
import type { ShadowRequest } from '../../src/shadow/run.js';
import { trackInteractions } from '../../src/shadow/tracker.js';
import { testClock } from '../support/clock.js';

function tracker() {
  const ended: Array<[ShadowRequest, number]> = [];
  const skipped: string[] = [];
  const events = trackInteractions({
    wants: (_method, params) => (params['name'] === 'wanted' ? { name: 'wanted', arguments: params['arguments'] } : undefined),
    ended: (req, rounds) => ended.push([req, rounds]),
    skipped: (m) => skipped.push(m),
  });
  return { events, ended, skipped };
}

describe('shadow tracker', () => {
  it('hands over a wanted call with its questions, the answers given, its capabilities and outcome', () => {
    const { events, ended } = tracker();
    const caps = { elicitation: { form: {} } };
    events.onStart({ handle: 'h', method: 'tools/call', params: { name: 'wanted', arguments: { a: 1 }, _meta: { v: 1 } }, mode: 'hold', capabilities: caps });
    events.onRound({ handle: 'h', round: 1, asked: [{ key: 'elicitation-1', method: 'elicitation/create', params: { requestedSchema: {} } }] });
    events.onAnswers({ handle: 'h', round: 1, answers: new Map([['elicitation-1', { action: 'accept', content: { n: 1 } }]]) });
    events.onRound({ handle: 'h', round: 2, asked: [{ key: 'sampling-2', method: 'sampling/createMessage', params: {} }] });
    events.onAnswers({ handle: 'h', round: 2, answers: new Map([['sampling-2', { role: 'assistant' }]]) });
    events.onEnd({ handle: 'h', reason: 'completed', result: { content: [] } });
    assert.deepEqual(ended, [
      [
        {
          method: 'tools/call',
          params: { name: 'wanted', arguments: { a: 1 } },
          capabilities: caps,
          exchanges: [
            { method: 'elicitation/create', params: { requestedSchema: {} }, answer: { action: 'accept', content: { n: 1 } } },
            { method: 'sampling/createMessage', params: {}, answer: { role: 'assistant' } },
          ],
          primary: { kind: 'result', result: { content: [] } },
        },
        2,
      ],
    ]);
  });

  it("offers the roots of the proxy's roots round to every roots question, marked as that round", () => {
    const { events, ended } = tracker();
    const roots = [{ uri: 'file:///p' }];
    events.onStart({ handle: 'h', method: 'tools/call', params: { name: 'wanted' }, mode: 'hold', capabilities: { roots: {} }, roots, rootsRound: true });
    events.onEnd({ handle: 'h', reason: 'completed', result: { content: [] } });
    assert.deepEqual(ended[0]?.[0].exchanges, [{ method: 'roots/list', answer: { roots }, reusable: true, rootsRound: true }]);
    assert.equal(ended[0]?.[1], 0, 'the roots round is not a round of the legacy call');
  });

  it('ignores unwanted calls and skips wanted ones that ended without an outcome', () => {
    const { events, ended, skipped } = tracker();
    events.onStart({ handle: 'a', method: 'tools/call', params: { name: 'other' }, mode: 'hold', capabilities: {} });
    events.onEnd({ handle: 'a', reason: 'completed', result: {} });
    events.onStart({ handle: 'b', method: 'tools/call', params: { name: 'wanted' }, mode: 'hold', capabilities: {} });
    events.onEnd({ handle: 'b', reason: 'expired' });
    events.onStart({ handle: 'c', method: 'tools/call', params: { name: 'wanted' }, mode: 'hold', capabilities: {} });
    events.onEnd({ handle: 'c', reason: 'completed', error: { code: -32602, message: 'bad' } });
    assert.deepEqual(skipped, ['tools/call']);
    assert.deepEqual(
      ended.map(([r]) => r.primary),
      [{ kind: 'error', code: -32602 }],
    );
  });
});

describe('shadow tracker in replay mode', () => {
  it('takes the answers from the record of the run that completes, and ignores the runs let go', () => {
    const { events, ended, skipped } = tracker();
    events.onStart({ handle: 'r1', method: 'tools/call', params: { name: 'wanted' }, mode: 'replay', capabilities: {}, recorded: [] });
    events.onRound({ handle: 'r1', round: 1, asked: [{ key: 'elicitation-1', method: 'elicitation/create' }] });
    events.onEnd({ handle: 'r1', reason: 'let_go', why: 'let go for replay' });
    const recorded = [{ n: 1, m: 'elicitation/create' as const, d: 'digest-1', a: { action: 'accept' } }];
    events.onStart({ handle: 'r2', method: 'tools/call', params: { name: 'wanted' }, mode: 'replay', capabilities: {}, recorded, roundsBefore: 1 });
    events.onEnd({ handle: 'r2', reason: 'completed', result: { content: [] } });
    assert.deepEqual(skipped, []);
    assert.deepEqual(
      ended.map(([, rounds]) => rounds),
      [1],
    );
    assert.deepEqual(
      ended.map(([r]) => r.exchanges),
      [[{ method: 'elicitation/create', digest: 'digest-1', answer: { action: 'accept' } }]],
    );
  });
});

describe('live shadow differences', () => {
  it('keeps the most recent first, bounded, and tells listeners', () => {
    const live = new LiveInteractions(testClock());
    let changes = 0;
    live.onChange(() => changes++);
    for (let i = 0; i < 35; i++)
      live.shadowDifference({
        at: i,
        upstream: 'old',
        candidate: 'new',
        method: 'tools/call',
        target: `t${i}`,
        outcome: 'differ',
        detail: 'content[0].text changed',
      });
    const { shadow } = live.snapshot();
    assert.equal(shadow.length, 30);
    assert.equal(shadow[0]!.target, 't34');
    assert.equal(changes, 35);
  });
});
