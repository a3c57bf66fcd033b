// The tasks extension's decisions and shapes against 2025-11-25 tasks (src/bridge/tasks/task-wire.ts),
// and what a task does with its legacy call's questions (task-questions.ts).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { hostedSupport } from '../../src/bridge/tasks/hosted-task.js';
import { screenQuestion } from '../../src/bridge/tasks/task-questions.js';
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
import { taskClaims } from '../../src/state/claims.js';
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

  it('hosts a tool the legacy server does not run as a task when the operator chose it and the request declares the extension', () => {
    assert.equal(dispatchToolCall('forbidden', true, 'optional'), 'hosted');
    assert.equal(dispatchToolCall('forbidden', false, 'optional'), 'call', 'no extension: an ordinary call');
    assert.equal(dispatchToolCall('forbidden', true, 'forbidden'), 'call', 'not chosen: an ordinary call');
    assert.equal(dispatchToolCall('forbidden', true, 'required'), 'hosted');
    assert.equal(dispatchToolCall('forbidden', false, 'required'), 'refuse', 'hosted only as a task: refused without the extension');
    // The legacy server's own tasks come first: hosting changes nothing for them.
    for (const hosted of ['optional', 'required'] as const) {
      assert.equal(dispatchToolCall('optional', true, hosted), 'task', hosted);
      assert.equal(dispatchToolCall('required', true, hosted), 'task', hosted);
      assert.equal(dispatchToolCall('optional', false, hosted), 'call', hosted);
      assert.equal(dispatchToolCall('required', false, hosted), 'refuse', hosted);
    }
  });

  it("reads a tool's hosted support from the policy: required, optional, or not hosted", () => {
    const policy = { tools: ['build', 'deploy'], required: ['book'], ttlMs: 60_000, pollIntervalMs: 1000, afterMs: 0 };
    assert.equal(hostedSupport(policy, 'build'), 'optional');
    assert.equal(hostedSupport(policy, 'deploy'), 'optional');
    assert.equal(hostedSupport(policy, 'book'), 'required');
    assert.equal(hostedSupport(policy, 'Build'), 'forbidden');
    assert.equal(hostedSupport(policy, 'test'), 'forbidden');
    assert.equal(hostedSupport(undefined, 'build'), 'forbidden');
    assert.equal(hostedSupport({ ...policy, tools: ['book'] }, 'book'), 'required', 'required wins');
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
    const created = createTaskResult({ ...VIEW, result: { content: [] }, inputRequests: { a: { method: 'elicitation/create' } } });
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

  it('inlines a result as the call would have answered it: resultType complete, content, no related-task _meta', () => {
    const related = { 'io.modelcontextprotocol/related-task': { taskId: 'legacy' } };
    assert.deepEqual(inlinedResult({ content: [], _meta: related }), { resultType: 'complete', content: [] });
    assert.deepEqual(inlinedResult({ content: [], _meta: { ...related, other: 1 } }), { resultType: 'complete', content: [], _meta: { other: 1 } });
    assert.deepEqual(inlinedResult({ structuredContent: {} }), { resultType: 'complete', structuredContent: {}, content: [] });
    assert.deepEqual(inlinedResult({ resultType: 'task', content: [] }), { resultType: 'complete', content: [] });
  });
});

describe('how a legacy task ended', () => {
  it('makes a tool error completed, whatever status the legacy server gave', () => {
    const result = { content: [], isError: true };
    const inlined = { resultType: 'complete', ...result };
    assert.deepEqual(legacyEnd('failed', { result }), { status: 'completed', result: inlined });
    assert.deepEqual(legacyEnd('completed', { result }), { status: 'completed', result: inlined });
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
  const claims = taskClaims({ handle: 'h', instance: 'instance/up', principal: 'alice', upstream: 'up' });

  it('opens as a task and keeps its owner URL', async () => {
    const id = await sealer.seal(
      taskClaims({ handle: 'h', instance: 'instance/up', principal: 'alice', upstream: 'up', ownerUrl: 'http://10.0.0.1:8080' }),
      Date.now() + 60_000,
    );
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

describe("a task's questions (screenQuestion)", () => {
  const ROOTS = [{ uri: 'file:///srv/a', name: 'a' }];
  const FORM = { mode: 'form', message: 'ok?', requestedSchema: { type: 'object', properties: {} } };
  const SAMPLING = { messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], maxTokens: 5 };

  it("answers roots/list with the operator's roots for a client that declared none", () => {
    const turn = screenQuestion('roots/list', undefined, {}, ROOTS);
    assert.deepEqual(turn, { kind: 'answer', result: { roots: ROOTS } });
    assert.ok(turn.kind === 'answer');
    assert.notEqual((turn.result['roots'] as unknown[])[0], ROOTS[0], 'a copy: the answer cannot change the operator roots');
  });

  it('asks the client what it declared', () => {
    assert.deepEqual(screenQuestion('roots/list', undefined, { roots: {} }, ROOTS), { kind: 'ask' }, "the client's own roots win");
    assert.deepEqual(screenQuestion('roots/list', undefined, { roots: { listChanged: true } }, []), { kind: 'ask' });
    assert.deepEqual(screenQuestion('elicitation/create', FORM, { elicitation: { form: {} } }, []), { kind: 'ask' });
    assert.deepEqual(screenQuestion('elicitation/create', { ...FORM, mode: undefined }, { elicitation: { form: {} } }, []), { kind: 'ask' });
    assert.deepEqual(screenQuestion('elicitation/create', { mode: 'url', url: 'https://x.example', message: 'm' }, { elicitation: { url: {} } }, []), {
      kind: 'ask',
    });
    assert.deepEqual(screenQuestion('sampling/createMessage', SAMPLING, { sampling: {} }, []), { kind: 'ask' });
    assert.deepEqual(screenQuestion('sampling/createMessage', { ...SAMPLING, tools: [] }, { sampling: { tools: {} } }, []), { kind: 'ask' });
  });

  it('refuses the legacy server what the client did not declare, sampling with the legacy rejection code', () => {
    assert.deepEqual(screenQuestion('sampling/createMessage', SAMPLING, { elicitation: { form: {} } }, ROOTS), {
      kind: 'refuse',
      code: -1,
      message: 'the client did not declare sampling',
    });
    assert.deepEqual(screenQuestion('sampling/createMessage', { ...SAMPLING, tools: [] }, { sampling: {} }, []), {
      kind: 'refuse',
      code: -1,
      message: 'the client did not declare sampling.tools',
    });
    assert.deepEqual(screenQuestion('elicitation/create', FORM, { elicitation: { url: {} } }, []), {
      kind: 'refuse',
      code: -32600,
      message: 'the client did not declare elicitation.form',
    });
    assert.deepEqual(screenQuestion('elicitation/create', { mode: 'url', url: 'https://x.example', message: 'm' }, { elicitation: { form: {} } }, []), {
      kind: 'refuse',
      code: -32600,
      message: 'the client did not declare elicitation.url',
    });
    assert.deepEqual(screenQuestion('roots/list', undefined, {}, []), { kind: 'refuse', code: -32600, message: 'the client did not declare roots' });
  });
});
