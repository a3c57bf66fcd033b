// One owner per interaction (src/bridge/owner.ts): every way an interaction ends releases each thing
// it holds exactly once (its suspension, with a tombstone in its place; its place in the
// principal's waiting load; its legacy call and lease) and is told as one event, and an end after
// the end changes nothing. Then the same through the bridge, on the paths that used to end twice or
// skip a release: a hosted call handed over, one refused at hand-over, a replay run let go.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { InteractionEvent } from '../../src/bridge/interaction-events.js';
import { Interaction } from '../../src/bridge/interaction.js';
import { type Ending, InteractionOwner } from '../../src/bridge/owner.js';
import { PrincipalLoad } from '../../src/bridge/principal-load.js';
import { RootsRound } from '../../src/bridge/roots-round.js';
import { SuspensionTable } from '../../src/bridge/suspensions.js';
import type { InteractionObserver } from '../../src/protocol/interaction-observer.js';
import type { Sealer } from '../../src/state/seal.js';
import { createLogger } from '../../src/telemetry/logger.js';
import { NO_TELEMETRY, type UpstreamTelemetry } from '../../src/telemetry/ports.js';
import { type Asked, expectCode, front, setup } from '../support/bridge-setup.js';
import { testClock } from '../support/clock.js';
import { FakeSession, recordingLease, tick, until } from '../support/fake-session.js';

const log = createLogger('error');
const FRONT = { method: 'tools/call', record: undefined };

function owned(subject: 'call' | 'roots' = 'call') {
  const clock = testClock();
  const suspended = new SuspensionTable<InteractionOwner>();
  const load = new PrincipalLoad();
  const events: InteractionEvent[] = [];
  const session = new FakeSession();
  const { lease, released } = recordingLease(session);
  const interaction = new Interaction('h1', { method: 'tools/call', params: { name: 'book' } }, log, clock);
  if (subject === 'call') interaction.start(lease);
  const owner = new InteractionOwner(subject === 'call' ? interaction : new RootsRound('h1'), 'alice', { suspended, load, emit: (e) => events.push(e) });
  owner.suspend(1, clock.now() + 60_000, FRONT, []);
  return { clock, suspended, load, events, session, released, owner };
}

const ends = (events: InteractionEvent[]) => events.filter((e) => e.type === 'ended');

describe('InteractionOwner: every end releases what the interaction holds, once', () => {
  const paths: Array<[Ending, string, readonly string[]]> = [
    [{ reason: 'completed', result: { content: [] } }, 'completed', ['discard: completed']],
    [{ reason: 'completed', error: { code: -32000, message: 'no' } }, 'completed', ['discard: completed']],
    [{ reason: 'expired', why: 'the interaction expired' }, 'expired', ['discard: the interaction expired']],
    [{ reason: 'cancelled', why: 'the client cancelled the request' }, 'cancelled', ['discard: the client cancelled the request']],
    [{ reason: 'lost' }, 'lost', ['discard: lost']],
    [{ reason: 'legacy_gave_up', why: 'gave up', waitedMs: 1500 }, 'legacy_gave_up', ['discard: gave up']],
    // A run let go settles its session before it goes back (let-go.ts): released, not discarded.
    [{ reason: 'let_go', why: 'let go for replay' }, 'cancelled', ['release']],
    // A call handed over keeps its legacy call and lease: the task ends them (tasks/hosted-task.ts).
    [{ reason: 'task' }, 'completed', []],
  ];
  for (const [ending, tombstone, release] of paths) {
    it(`${ending.reason}${ending.error ? ' (an error)' : ''}: the suspension, the waiting load and the lease, each once; one event`, async () => {
      const { clock, suspended, load, events, released, owner } = owned();
      assert.equal(load.of('alice').waiting, 1);
      owner.end(ending);
      assert.equal(suspended.has('h1'), false, 'no longer suspended');
      const miss = suspended.peek('h1', 1, clock.now());
      assert.equal(miss.ok, false);
      assert.equal(!miss.ok && miss.miss, tombstone, 'a late retry learns why');
      if (ending.waitedMs !== undefined) assert.equal(!miss.ok && miss.waitedMs, ending.waitedMs);
      assert.equal(load.of('alice').waiting, 0, 'no longer waiting for the principal');
      await until(() => released.length >= release.length, 1000, 'the lease to be given back');
      assert.deepEqual(released, release);
      assert.deepEqual(
        ends(events).map((e) => e.type === 'ended' && [e.reason, e.why, e.result, e.error]),
        [[ending.reason, ending.why, ending.result, ending.error]],
      );
      assert.equal(owner.ended, true);

      // An end after the end: nothing more is released, told or written over.
      owner.end({ reason: 'cancelled', why: 'again' });
      owner.end(ending);
      await new Promise((r) => setTimeout(r, 200));
      assert.deepEqual(released, release, 'released once');
      assert.equal(ends(events).length, 1, 'told once');
      const again = suspended.peek('h1', 1, clock.now());
      assert.equal(!again.ok && again.miss, tombstone, 'the tombstone stands');
    });
  }

  it('a roots round holds no session and no waiting place; answered, its owner holds nothing and ends no more', () => {
    const { clock, load, events, released, owner } = owned('roots');
    assert.equal(load.of('alice').waiting, 0, 'a roots round is not a waiting interaction of the principal');
    assert.deepEqual(
      events.map((e) => e.type === 'round_asked' && e.rootsRound),
      [true],
    );
    assert.equal(owner.claim(1, clock.now()).ok, true);
    owner.rootsAnswered();
    owner.end({ reason: 'expired' });
    assert.equal(ends(events).length, 0, 'a roots round answered does not end again');
    assert.deepEqual(released, []);
  });

  it('a claimed round waits no more for its principal, and a second claim of it misses (consumed)', () => {
    const { clock, load, owner } = owned();
    assert.equal(owner.claim(1, clock.now()).ok, true);
    assert.equal(owner.suspended, false);
    assert.equal(load.of('alice').waiting, 0);
    const again = owner.claim(1, clock.now());
    assert.equal(!again.ok && again.miss, 'consumed');
  });

  it('a roots round that expires ends once, with nothing to give back', () => {
    const { events, released, owner } = owned('roots');
    owner.end({ reason: 'expired', why: 'the interaction expired' });
    owner.end({ reason: 'cancelled' });
    assert.deepEqual(
      ends(events).map((e) => e.type === 'ended' && e.reason),
      ['expired'],
    );
    assert.deepEqual(released, []);
  });
});

/** Records what the bridge's telemetry and observer hear of each interaction's end. */
function listening() {
  const ended: Array<[string, number]> = [];
  const telemetry: UpstreamTelemetry = { ...NO_TELEMETRY, interactionEnded: (reason, rounds) => void ended.push([reason, rounds]) };
  const starts = new Map<string, string>();
  const observed: Array<{ handle: string; reason: string }> = [];
  const observer: InteractionObserver = {
    onStart: (e) => void starts.set(e.handle, String(e.params['name'])),
    onRound: () => {},
    onAnswers: () => {},
    onEnd: (e) => void observed.push({ handle: e.handle, reason: e.reason }),
  };
  /** The observer's ends of the calls to `tool`. */
  const endsOf = (tool: string) => observed.filter((e) => starts.get(e.handle) === tool).map((e) => e.reason);
  return { telemetry, observer, ended, endsOf };
}

const TASKS = { elicitation: {}, extensions: { 'io.modelcontextprotocol/tasks': {} } };
const hosted = (afterMs: number) => ({ tools: ['book'], required: [], ttlMs: 60_000, pollIntervalMs: 1000, afterMs });
const FORM = { message: 'How many?', requestedSchema: { type: 'object', properties: { n: { type: 'number' } } } };

describe('Bridge: the owner on the paths that ended twice or skipped a release', () => {
  it('a hosted call refused at hand-over (the waiting share is full) ends once, cancelled', async () => {
    const { telemetry, observer, ended, endsOf } = listening();
    const { bridge, sessions } = setup({ maxWaiting: 1, tasks: hosted(300), telemetry, observer });
    const book = expectCode(bridge.call(front({ capabilities: TASKS })), 'overloaded', /--waiting-share/);
    // A plain call waits for its client and takes the one waiting place.
    const other = bridge.call(front({ params: { name: 'other', arguments: {} }, identity: { method: 'tools/call', target: 'other', args: {} } }));
    await until(() => sessions.length === 2 && sessions[1]!.calls.length === 1);
    sessions[1]!.ask('elicitation/create', FORM);
    assert.equal(((await other) as unknown as Asked).resultType, 'input_required');
    await book;
    assert.deepEqual(endsOf('book'), ['cancelled'], 'the observer hears one end');
    assert.deepEqual(
      ended.map(([reason]) => reason),
      ['cancelled'],
      'telemetry counts one end',
    );
    await bridge.close();
  });

  it('a hosted call handed over to a task ends once (task), and a late retry of its round learns the call is over', async () => {
    const { telemetry, observer, ended, endsOf } = listening();
    const { bridge, last } = setup({ tasks: hosted(300), telemetry, observer });
    const first = bridge.call(front({ capabilities: TASKS }));
    await tick();
    const q = last().ask('elicitation/create', FORM);
    const asked = (await first) as unknown as Asked;
    assert.equal(asked.resultType, 'input_required');
    const retry = () =>
      front({ capabilities: TASKS, requestState: asked.requestState, inputResponses: { 'elicitation-1': { action: 'accept', content: { n: 2 } } } });
    const task = bridge.call(retry());
    await q.answer;
    // The server goes quiet past `afterMs`: the call becomes a task.
    assert.equal((await task)['resultType'], 'task');
    assert.deepEqual(endsOf('book'), ['task']);
    assert.deepEqual(ended, [['task', 1]]);
    const late = await expectCode(bridge.call(retry()), 'interaction_gone');
    assert.equal(late.data?.['reason'], 'completed', 'the call is over as a call, as a completed one is');
    await bridge.close();
  });

  it('a call whose round cannot be sealed ends once, cancelled, and gives its session back', async () => {
    const { telemetry, observer, ended, endsOf } = listening();
    const failing = (sealer: Sealer): Sealer => ({ ...sealer, seal: async () => Promise.reject(new Error('no key')) });
    const { bridge, pool, last } = setup({ sealer: failing, telemetry, observer });
    const first = bridge.call(front());
    await tick();
    last()
      .ask('elicitation/create', FORM)
      .answer.catch(() => {});
    await assert.rejects(first, /no key/);
    assert.deepEqual(endsOf('book'), ['cancelled']);
    assert.deepEqual(ended, [['cancelled', 1]]);
    await until(() => pool.stats().held === 0, 1000, 'the session to be given back');
    assert.equal(bridge.runningCount, 0);
    await bridge.close();
  });

  it('a replay run let go is an ended interaction for telemetry as it is for the observer', async () => {
    const { telemetry, observer, ended, endsOf } = listening();
    const { bridge, last } = setup({ suspend: 'replay', telemetry, observer });
    const first = bridge.call(front());
    await tick();
    // Let go, the run's open question is refused so its handler stops.
    const q = last().ask('elicitation/create', FORM);
    await assert.rejects(q.answer, /the call was cancelled/);
    assert.equal(((await first) as unknown as Asked).resultType, 'input_required');
    assert.deepEqual(endsOf('book'), ['let_go']);
    assert.deepEqual(ended, [['let_go', 0]]);
    await bridge.close();
  });
});
