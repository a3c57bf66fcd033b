// Per-principal limits: the pure decision, and the bridge keeping principals apart over fake sessions.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { overLimit, PrincipalLoad, taskShare } from '../../src/bridge/principal-load.js';
import type { ProxyError } from '../../src/protocol/errors.js';
import { expectCode, front, setup, type Asked } from '../support/bridge-setup.js';
import { tick } from '../support/fake-session.js';

const LIMITS = { maxCallsPerPrincipal: 2, maxInteractionsPerPrincipal: 1 };

describe('overLimit', () => {
  it('refuses a principal at its running or waiting limit', () => {
    assert.equal(overLimit({ running: 1, waiting: 0 }, LIMITS, 'begin'), undefined);
    assert.equal(overLimit({ running: 2, waiting: 0 }, LIMITS, 'begin')?.limit, 'maxCallsPerPrincipal');
    assert.equal(overLimit({ running: 0, waiting: 1 }, LIMITS, 'begin')?.limit, 'maxInteractionsPerPrincipal');
    assert.equal(overLimit({ running: 0, waiting: 1 }, LIMITS, 'resume'), undefined, 'a resume adds nothing to the waiting');
    assert.equal(overLimit({ running: 2, waiting: 1 }, LIMITS, 'resume')?.limit, 'maxCallsPerPrincipal');
  });
  it("refuses a principal's new task once it runs its share of tasks, and only a call that may become one", () => {
    const task = { tasks: 6, maxTasks: 6 };
    assert.equal(overLimit({ running: 0, waiting: 0 }, LIMITS, 'begin', task)?.limit, 'maxTasksPerPrincipal');
    assert.match(overLimit({ running: 0, waiting: 0 }, LIMITS, 'begin', task)!.message, /6 tasks running.*at most 6/);
    assert.equal(overLimit({ running: 0, waiting: 0 }, LIMITS, 'begin', { tasks: 5, maxTasks: 6 }), undefined);
    assert.equal(overLimit({ running: 0, waiting: 0 }, LIMITS, 'begin'), undefined, 'a plain call is not counted against the task share');
    assert.equal(overLimit({ running: 0, waiting: 0 }, LIMITS, 'resume', task), undefined, 'a retry creates no task');
  });
  it('gives one principal half the waiting share as tasks, within its call limit', () => {
    // The defaults: a stdio upstream (16 sessions, --waiting-share 75: 12) and an HTTP one (256: 192).
    assert.equal(taskShare(12, 32), 6);
    assert.equal(taskShare(192, 32), 32);
    assert.equal(taskShare(1, 32), 1, 'at least one');
    assert.equal(taskShare(3, 32), 1);
  });
  it('counts per principal and settles each interaction once', () => {
    const load = new PrincipalLoad();
    load.enter('a');
    load.wait('a', 'h1');
    load.wait('b', 'h2');
    assert.deepEqual(load.of('a'), { running: 1, waiting: 1 });
    load.settle('h1');
    load.settle('h1');
    load.leave('a');
    assert.deepEqual(load.of('a'), { running: 0, waiting: 0 });
    assert.deepEqual(load.of('b'), { running: 0, waiting: 1 });
  });
});

describe('PrincipalLoad.run with running tasks', () => {
  it("counts the principal's running tasks as running calls, and never caps anonymous", async () => {
    const load = new PrincipalLoad();
    assert.equal(await load.run('alice', 'begin', LIMITS, async () => 'ran', 1), 'ran');
    await assert.rejects(
      load.run('alice', 'begin', LIMITS, async () => 'ran', 2),
      (err: Error & { data?: Record<string, unknown> }) => {
        assert.match(err.message, /2 calls or tasks running/);
        assert.equal(err.data?.['limit'], 'maxCallsPerPrincipal');
        return true;
      },
    );
    assert.equal(await load.run('anonymous', 'begin', LIMITS, async () => 'ran', 5), 'ran');
  });
});

describe('Bridge: per-principal limits', () => {
  const ask = { message: 'Name?', requestedSchema: { type: 'object', properties: {} } };

  it('refuses a principal at its running limit while another still gets in', async () => {
    const { bridge, sessions } = setup({ maxCalls: 1 });
    const running = bridge.call(front({ principal: 'alice' }));
    await tick();
    const refused = await expectCode(bridge.call(front({ principal: 'alice' })), 'principal_limit', /--max-calls-per-principal 1/);
    assert.deepEqual(refused.data, { reason: 'principal_limit', action: 'retry', limit: 'maxCallsPerPrincipal', max: 1 });
    const other = bridge.call(front({ principal: 'bob' }));
    await tick();
    for (const s of sessions) s.lastCall.resolve({ content: [] });
    await Promise.all([running, other]);
    // The finished call no longer counts.
    const again = bridge.call(front({ principal: 'alice' }));
    await tick();
    for (const s of sessions) s.lastCall.resolve({ content: [] });
    await again;
  });

  it('refuses a new call of a principal at its waiting limit, but lets it answer and lets others wait', async () => {
    const { bridge, sessions, last } = setup({ maxInteractions: 1 });
    const first = bridge.call(front({ principal: 'alice' }));
    await tick();
    const q = last().ask('elicitation/create', ask);
    const asked = (await first) as unknown as Asked;
    await expectCode(bridge.call(front({ principal: 'alice' })), 'principal_limit', /--max-interactions-per-principal 1/);
    const bobFirst = bridge.call(front({ principal: 'bob' }));
    await tick();
    last().ask('elicitation/create', ask);
    assert.equal(((await bobFirst) as unknown as Asked).resultType, 'input_required');
    const retry = bridge.call(
      front({ principal: 'alice', requestState: asked.requestState, inputResponses: { 'elicitation-1': { action: 'accept', content: {} } } }),
    );
    await q.answer;
    sessions[0]!.lastCall.resolve({ content: [] });
    await retry;
    // Bob's interaction is still waiting; end it so its session is free for alice's next call.
    bridge.expire();
    const next = bridge.call(front({ principal: 'alice' }));
    await tick();
    for (const s of sessions) s.lastCall.resolve({ content: [] });
    await next;
  });

  it('does not cap `anonymous`: without authentication it is everybody', async () => {
    const { bridge, sessions } = setup({ maxCalls: 1 });
    const calls = [bridge.call(front()), bridge.call(front())];
    await tick();
    assert.equal(sessions.length, 2, 'both calls reached the legacy server');
    for (const s of sessions) s.lastCall.resolve({ content: [] });
    assert.deepEqual(await Promise.all(calls), [{ content: [] }, { content: [] }]);
  });
});

describe('Bridge: tasks and the waiting share', () => {
  const tasks = { tools: ['book'], required: [], ttlMs: 60_000, pollIntervalMs: 1000, afterMs: 0 };
  const TASKS = { elicitation: {}, extensions: { 'io.modelcontextprotocol/tasks': {} } };
  const task = (principal: string) => front({ principal, capabilities: TASKS });

  it("refuses a principal's tasks past half the share, and anyone's past the share, while plain calls run", async () => {
    // Four sessions may wait: each principal runs at most two tasks.
    const { bridge, sessions, pool } = setup({ maxWaiting: 4, tasks });
    for (const p of ['alice', 'alice']) assert.equal((await bridge.call(task(p)))['resultType'], 'task');
    const mine = await expectCode(bridge.call(task('alice')), 'principal_limit', /2 tasks running.*at most 2/);
    assert.deepEqual(mine.data, { reason: 'principal_limit', action: 'retry', limit: 'maxTasksPerPrincipal', max: 2 });
    for (const p of ['bob', 'carol']) assert.equal((await bridge.call(task(p)))['resultType'], 'task');
    assert.equal(pool.stats().waitingCalls, 4, 'each task holds its session as a waiting call');
    const full = await expectCode(bridge.call(task('dave')), 'overloaded', /--waiting-share/);
    assert.deepEqual(full.data, { reason: 'waiting_limit', action: 'retry' });
    // A plain call is served beside them.
    const plain = bridge.call(front({ principal: 'dave' }));
    await tick();
    sessions.at(-1)!.lastCall.resolve({ content: [{ type: 'text', text: 'plain' }] });
    assert.deepEqual((await plain)['content'], [{ type: 'text', text: 'plain' }]);
    await bridge.close();
  });

  it("counts a burst of one principal's tasks while they start", async () => {
    const { bridge } = setup({ maxWaiting: 4, tasks });
    const outcomes = await Promise.all(
      Array.from({ length: 6 }, () =>
        bridge.call(task('alice')).then(
          (r) => String(r['resultType']),
          (err: ProxyError) => String(err.data?.['limit']),
        ),
      ),
    );
    assert.deepEqual(outcomes.sort(), ['maxTasksPerPrincipal', 'maxTasksPerPrincipal', 'maxTasksPerPrincipal', 'maxTasksPerPrincipal', 'task', 'task']);
    await bridge.close();
  });
});
