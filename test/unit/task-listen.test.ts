// What a listen's task part sends (front/task-listen.ts TaskSubscription): the acknowledgement with
// the honored task ids and each task's state right after it, a notification per change, the front's
// closing result held until the watched tasks are over.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { TaskView } from '../../src/bridge/tasks/task-wire.js';
import { MAX_LISTEN_TASK_IDS, requestedTaskIds, TaskSubscription } from '../../src/front/task-listen.js';

const SUB = 'io.modelcontextprotocol/subscriptionId';
const view = (taskId: string, status: TaskView['status'], extra: Partial<TaskView> = {}): TaskView => ({
  taskId,
  status,
  createdAt: '2026-12-04T00:00:00.000Z',
  lastUpdatedAt: '2026-12-04T00:00:00.000Z',
  ttlMs: 60_000,
  ...extra,
});
const ack = (notifications: Record<string, unknown>) => ({
  jsonrpc: '2.0',
  method: 'notifications/subscriptions/acknowledged',
  params: { notifications, _meta: { [SUB]: 7 } },
});
const closing = { jsonrpc: '2.0', id: 7, result: { resultType: 'complete', _meta: { [SUB]: 7 } } };

describe('requestedTaskIds', () => {
  it('reads the string ids of a listen filter, and nothing from a malformed one', () => {
    assert.deepEqual(requestedTaskIds({ notifications: { taskIds: ['a', 3, 'b'] } }), ['a', 'b']);
    assert.deepEqual(requestedTaskIds({ notifications: { taskIds: 'a' } }), []);
    assert.deepEqual(requestedTaskIds({ notifications: { toolsListChanged: true } }), []);
    assert.deepEqual(requestedTaskIds(undefined), []);
  });
  it('looks at no more than MAX_LISTEN_TASK_IDS distinct ids, however many are named', () => {
    const many = Array.from({ length: 9000 }, (_, i) => `id-${i % 100}`);
    const ids = requestedTaskIds({ notifications: { taskIds: ['id-0', 'id-0', ...many] } });
    assert.equal(ids.length, MAX_LISTEN_TASK_IDS);
    assert.equal(new Set(ids).size, ids.length);
    assert.equal(ids[1], 'id-1');
  });
});

describe('TaskSubscription', () => {
  it('adds the honored task ids to the acknowledgement, then sends each task as it is now', () => {
    const sub = new TaskSubscription(7, new Map([['t1', view('t1', 'working')]]));
    const out = sub.fromFront(ack({ toolsListChanged: true }));
    assert.equal(out.length, 2);
    assert.deepEqual((out[0]!['params'] as Record<string, unknown>)['notifications'], { toolsListChanged: true, taskIds: ['t1'] });
    assert.deepEqual(out[1], {
      jsonrpc: '2.0',
      method: 'notifications/tasks',
      params: {
        taskId: 't1',
        status: 'working',
        createdAt: '2026-12-04T00:00:00.000Z',
        lastUpdatedAt: '2026-12-04T00:00:00.000Z',
        ttlMs: 60_000,
        _meta: { [SUB]: 7 },
      },
    });
  });

  it('sends nothing of a task before the acknowledgement, and ignores tasks it does not watch', () => {
    const sub = new TaskSubscription(7, new Map([['t1', view('t1', 'working')]]));
    assert.deepEqual(sub.taskChanged(view('t1', 'input_required', { inputRequests: { 'elicitation-1': { method: 'elicitation/create' } } })), []);
    const [, first] = sub.fromFront(ack({}));
    assert.equal((first!['params'] as Record<string, unknown>)['status'], 'input_required', 'the latest state goes out after the acknowledgement');
    assert.deepEqual(sub.taskChanged(view('other', 'completed')), []);
  });

  it("passes the front's other messages through, and holds its closing result until the tasks are over", () => {
    const sub = new TaskSubscription(7, new Map([['t1', view('t1', 'working')]]));
    sub.fromFront(ack({}));
    const changed = { jsonrpc: '2.0', method: 'notifications/tools/list_changed', params: { _meta: { [SUB]: 7 } } };
    assert.deepEqual(sub.fromFront(changed), [changed]);
    assert.deepEqual(sub.fromFront(closing), [], 'held: the task still runs');
    assert.equal(sub.over, false);
    const done = sub.taskChanged(view('t1', 'completed', { result: { content: [] } }));
    assert.equal(done.length, 2);
    assert.equal((done[0]!['params'] as Record<string, unknown>)['status'], 'completed');
    assert.deepEqual((done[0]!['params'] as Record<string, unknown>)['result'], { content: [] });
    assert.deepEqual(done[1], closing);
    assert.equal(sub.over, true);
    assert.deepEqual(sub.taskChanged(view('t1', 'completed')), [], 'nothing after the end');
  });

  it('ends with a result of its own when the front ended without one and the tasks are over', () => {
    const sub = new TaskSubscription(7, new Map([['t1', view('t1', 'failed', { error: { code: -32603, message: 'gone' } })]]));
    sub.fromFront(ack({}));
    assert.deepEqual(sub.frontEnded(), [closing]);
    assert.equal(sub.over, true);
  });

  it('sends nothing once the client cancelled', () => {
    const sub = new TaskSubscription(7, new Map([['t1', view('t1', 'working')]]));
    sub.fromFront(ack({}));
    sub.cancel();
    assert.deepEqual(sub.taskChanged(view('t1', 'completed')), []);
    assert.deepEqual(sub.fromFront(closing), []);
  });
});
