// The live view's state: calls in flight, waiting ones with round and age, recent rounds; the
// observer fan-out; and the --dashboard configuration rules.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { LiveInteractions } from '../../src/audit/live.js';
import { fanOut, type Observer } from '../../src/audit/observers.js';
import { resolveCli } from '../../src/config/resolve.js';
import { testClock } from '../support/clock.js';

describe('live interactions', () => {
  it('follows a call from start to end and keeps shapes only', () => {
    const clock = testClock();
    const live = new LiveInteractions(clock);
    let changes = 0;
    live.onChange(() => changes++);
    const o = live.observerFor('up');
    o.onStart({ handle: 'h', method: 'tools/call', params: { name: 'ask', arguments: { secret: 'x' } }, mode: 'hold', capabilities: {} });
    assert.deepEqual(
      live.snapshot().calls.map((c) => [c.target, c.state]),
      [['ask', 'working']],
    );
    clock.advance(10);
    o.onRound({ handle: 'h', round: 1, asked: [{ key: 'elicitation-1', method: 'elicitation/create', params: { message: 'secret question' } }] });
    const [waiting] = live.snapshot().calls;
    assert.deepEqual([waiting!.state, waiting!.round, waiting!.asking, waiting!.since], ['waiting', 1, ['elicitation/create'], clock.now()]);
    o.onAnswers({ handle: 'h', round: 1, answers: new Map([['elicitation-1', { action: 'accept', content: { pin: 'secret answer' } }]]) });
    assert.equal(live.snapshot().calls[0]!.state, 'working');
    o.onEnd({ handle: 'h', reason: 'completed', result: {} });
    const snap = live.snapshot();
    assert.equal(snap.calls.length, 0);
    assert.deepEqual(
      snap.recent.map((r) => r.event),
      ['ended', 'answered', 'asked'],
    );
    assert.doesNotMatch(JSON.stringify(snap), /secret/);
    assert.equal(changes, 4);
  });

  it("counts a replayed call's rounds across its runs: the run after one round ends in round 1", () => {
    const live = new LiveInteractions(testClock());
    const o = live.observerFor('up');
    const start = { method: 'tools/call', params: { name: 'book' }, mode: 'replay' as const, capabilities: {} };
    o.onStart({ handle: 'run1', ...start, replay: { call: 'c', run: 1, answers: new Map() }, roundsBefore: 0 });
    o.onRound({ handle: 'run1', round: 1, asked: [{ key: 'elicitation-1', method: 'elicitation/create' }] });
    o.onEnd({ handle: 'run1', reason: 'let_go' });
    o.onStart({ handle: 'run2', ...start, replay: { call: 'c', run: 2, answers: new Map() }, roundsBefore: 1 });
    assert.equal(live.snapshot().calls[0]!.round, 1);
    o.onEnd({ handle: 'run2', reason: 'completed', result: {} });
    assert.deepEqual(
      live.snapshot().recent.map((r) => [r.event, r.round, r.detail]),
      [
        ['ended', 1, 'completed'],
        ['ended', 1, 'let_go'],
        ['asked', 1, 'elicitation-1 (elicitation/create)'],
      ],
    );
  });

  it('ignores events of calls it never saw start', () => {
    const live = new LiveInteractions(testClock());
    const o = live.observerFor('up');
    o.onRound({ handle: 'x', round: 1, asked: [] });
    o.onEnd({ handle: 'x', reason: 'expired' });
    assert.deepEqual(live.snapshot().recent, []);
  });

  it('fans events out to every observer', () => {
    const seen: string[] = [];
    const spy = (name: string): Observer => ({
      onStart: () => seen.push(`${name}:start`),
      onRound: () => seen.push(`${name}:round`),
      onAnswers: () => seen.push(`${name}:answers`),
      onEnd: () => seen.push(`${name}:end`),
    });
    assert.equal(fanOut([]), undefined);
    const one = spy('a');
    assert.equal(fanOut([one]), one);
    const both = fanOut([spy('a'), spy('b')])!;
    both.onStart({ handle: 'h', method: 'tools/call', params: {}, mode: 'hold', capabilities: {} });
    both.onEnd({ handle: 'h', reason: 'completed' });
    assert.deepEqual(seen, ['a:start', 'b:start', 'a:end', 'b:end']);
  });
});

describe('--dashboard configuration', () => {
  const run = (argv: string[]) => resolveCli([...argv, '--', 'node', 's.js'], {});
  it('is off by default and on with the flag on loopback', () => {
    const r = run([]);
    assert.ok(r.action === 'run' && r.config.dashboard === false);
    for (const host of ['127.0.0.1', 'localhost', '::1']) {
      const on = run(['--dashboard', '--host', host]);
      assert.ok(on.action === 'run' && on.config.dashboard === true);
    }
  });

  it('is refused on a non-loopback host and with --stdio', () => {
    assert.throws(
      () => run(['--dashboard', '--host', '0.0.0.0']),
      /--dashboard has no authentication yet, so it is served on a loopback --host only .*not on '0\.0\.0\.0'/,
    );
    assert.throws(() => run(['--dashboard', '--stdio']), /--dashboard is served on the HTTP listener: it does not apply with --stdio/);
  });
});
