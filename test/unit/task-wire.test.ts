// The tasks extension's decisions and shapes against 2025-11-25 tasks (src/bridge/tasks/task-wire.ts).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import {
  createTaskResult,
  declaresTasks,
  detailedTask,
  dispatchToolCall,
  inlinedResult,
  legacyEnd,
  legacyRunsToolTasks,
  legacyTaskCreated,
  TASKS_EXTENSION,
  taskSupportOf,
  type TaskView,
} from '../../src/bridge/tasks/task-wire.js';
import { createSealer, StateError } from '../../src/state/seal.js';

const VIEW: TaskView = {
  taskId: 'sealed-id',
  status: 'working',
  createdAt: '2026-12-04T00:00:00.000Z',
  lastUpdatedAt: '2026-12-04T00:00:01.000Z',
  ttlMs: 60_000.4,
  pollIntervalMs: 100,
};

describe('who gets a task', () => {
  it('reads the extension from the request capabilities only as an object', () => {
    assert.equal(declaresTasks({ extensions: { [TASKS_EXTENSION]: {} } }), true);
    for (const caps of [undefined, {}, { extensions: {} }, { extensions: { [TASKS_EXTENSION]: true } }, { extensions: [TASKS_EXTENSION] }]) {
      assert.equal(declaresTasks(caps as never), false, JSON.stringify(caps));
    }
  });

  it('needs the legacy server to run tools/call as tasks', () => {
    assert.equal(legacyRunsToolTasks({ tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } }), true);
    for (const caps of [{}, { tasks: {} }, { tasks: { requests: {} } }, { tasks: { requests: { sampling: { createMessage: {} } } } }]) {
      assert.equal(legacyRunsToolTasks(caps), false, JSON.stringify(caps));
    }
  });

  it('reads a tool task support, forbidden when absent or unknown', () => {
    assert.equal(taskSupportOf({ execution: { taskSupport: 'optional' } }), 'optional');
    assert.equal(taskSupportOf({ execution: { taskSupport: 'required' } }), 'required');
    for (const tool of [undefined, {}, { execution: {} }, { execution: { taskSupport: 'always' } }]) assert.equal(taskSupportOf(tool), 'forbidden');
  });

  it('lets the server decide: a task when supported and declared, a refusal for a required tool without the extension', () => {
    assert.equal(dispatchToolCall('forbidden', true), 'call');
    assert.equal(dispatchToolCall('forbidden', false), 'call');
    assert.equal(dispatchToolCall('optional', true), 'task');
    assert.equal(dispatchToolCall('optional', false), 'call');
    assert.equal(dispatchToolCall('required', true), 'task');
    assert.equal(dispatchToolCall('required', false), 'refuse');
  });
});

describe('the 2026-07-28 shapes', () => {
  it('reads a legacy CreateTaskResult, and nothing else', () => {
    const task = { taskId: 't1', status: 'working', createdAt: VIEW.createdAt, lastUpdatedAt: VIEW.lastUpdatedAt, ttl: 60000, pollInterval: 100 };
    assert.deepEqual(legacyTaskCreated({ task }), { ...task });
    const { pollInterval: _p, ...noPoll } = task;
    assert.deepEqual(legacyTaskCreated({ task: { ...noPoll, ttl: null } }), { ...noPoll, ttl: null });
    for (const result of [{}, { content: [] }, { task: { status: 'working' } }, { task: 'x' }]) assert.equal(legacyTaskCreated(result), undefined);
  });

  it('answers a tools/call flat, in integer milliseconds, without result, error, questions or requestState', () => {
    const created = createTaskResult({ ...VIEW, result: { content: [] }, inputRequests: { a: {} } });
    assert.deepEqual(created, {
      resultType: 'task',
      taskId: 'sealed-id',
      status: 'working',
      createdAt: VIEW.createdAt,
      lastUpdatedAt: VIEW.lastUpdatedAt,
      ttlMs: 60000,
      pollIntervalMs: 100,
    });
    assert.equal(createTaskResult({ ...VIEW, ttlMs: null })['ttlMs'], null);
  });

  it('inlines the result once completed, the error once failed, and the open questions while input_required', () => {
    const result = { content: [{ type: 'text', text: 'ok' }] };
    const error = { code: -32603, message: 'crashed' };
    assert.deepEqual(detailedTask({ ...VIEW, status: 'completed', result })['result'], result);
    const failed = detailedTask({ ...VIEW, status: 'failed', error, result });
    assert.deepEqual(failed['error'], error);
    assert.equal('result' in failed, false);
    const asking = detailedTask({ ...VIEW, status: 'input_required', inputRequests: { 'elicitation-0': { method: 'elicitation/create' } } });
    assert.deepEqual(asking['inputRequests'], { 'elicitation-0': { method: 'elicitation/create' } });
    const working = detailedTask({ ...VIEW, result, error });
    assert.equal(working['resultType'], 'complete');
    for (const k of ['result', 'error', 'inputRequests', 'requestState']) assert.equal(k in working, false, k);
  });

  it('drops the related-task _meta from an inlined result and keeps the rest', () => {
    const related = { 'io.modelcontextprotocol/related-task': { taskId: 'legacy' } };
    assert.deepEqual(inlinedResult({ content: [], _meta: related }), { content: [] });
    assert.deepEqual(inlinedResult({ content: [], _meta: { ...related, other: 1 } }), { content: [], _meta: { other: 1 } });
    assert.deepEqual(inlinedResult({ structuredContent: {} }), { structuredContent: {}, content: [] });
  });
});

describe('how a legacy task ended', () => {
  it('makes a tool error completed, whatever status the legacy server gave', () => {
    const result = { content: [], isError: true };
    assert.deepEqual(legacyEnd('failed', { result }), { status: 'completed', result });
    assert.deepEqual(legacyEnd('completed', { result }), { status: 'completed', result });
  });

  it('makes a stored JSON-RPC error, or a tasks/result error, failed with that error', () => {
    assert.deepEqual(legacyEnd('failed', { result: { error: { code: -32603, message: 'boom', data: 1 } } }), {
      status: 'failed',
      error: { code: -32603, message: 'boom', data: 1 },
    });
    assert.deepEqual(legacyEnd('failed', { error: { code: -32000, message: 'gone' } }), { status: 'failed', error: { code: -32000, message: 'gone' } });
  });

  it('names the status message for a failure that says nothing else, and keeps cancelled', () => {
    assert.deepEqual(legacyEnd('failed', { result: { content: [] } }, 'disk full'), { status: 'failed', error: { code: -32603, message: 'disk full' } });
    assert.deepEqual(legacyEnd('cancelled', { result: { content: [] } }), { status: 'cancelled' });
  });
});

describe('task ids are sealed', () => {
  const sealer = createSealer(new Uint8Array(randomBytes(32)));
  const claims = { h: 'h', i: 'instance/up', r: 0, p: 'alice', fp: 'task', k: 'task' as const, u: 'up' };

  it('opens as a task and keeps its owner URL', async () => {
    const id = await sealer.seal({ ...claims, o: 'http://10.0.0.1:8080' }, Date.now() + 60_000);
    assert.deepEqual(await sealer.inspect(id), { ...claims, o: 'http://10.0.0.1:8080' });
  });

  it('is never accepted as a requestState', async () => {
    const id = await sealer.seal(claims, Date.now() + 60_000);
    await assert.rejects(sealer.open(id, { instance: 'instance/up', principal: 'alice', fingerprint: 'task' }), (err: unknown) => {
      assert.ok(err instanceof StateError);
      assert.equal(err.reason, 'wrong_request');
      return true;
    });
  });
});
