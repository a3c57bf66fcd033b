// The task table and a translated task, with a fake legacy session playing a 2025-11-25 tasks server:
// who may reach a task, its questions and their answers, cancellation, a lost session.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { TaskTable } from '../../src/bridge/tasks/task-table.js';
import { ProxyError } from '../../src/protocol/errors.js';
import { taskClaims } from '../../src/state/claims.js';
import { createSealer } from '../../src/state/seal.js';
import { createLogger } from '../../src/telemetry/logger.js';
import { testClock } from '../support/clock.js';
import { FakeSession, recordingLease, tick, type FakeCall } from '../support/fake-session.js';

const CREATED = '2026-12-04T00:00:00.000Z';
const LEGACY_TASK = { taskId: 'legacy-1', status: 'working', createdAt: CREATED, lastUpdatedAt: CREATED, ttl: 60_000, pollInterval: 100 };
const ASKING_CAPS = { elicitation: { form: {} }, extensions: { 'io.modelcontextprotocol/tasks': {} } };

function setup(key = new Uint8Array(randomBytes(32))) {
  const clock = testClock(Date.parse(CREATED));
  const sealer = createSealer(key, () => clock.now());
  const table = new TaskTable({ sealer, instance: 'i1/up', upstream: 'up', operatorRoots: () => [], clock, log: createLogger('error') });
  // The legacy server: tasks/get reports `status`; tasks/result and tasks/cancel wait for the test.
  let status = 'working';
  const session = new FakeSession({}, (call: FakeCall) => {
    if (call.method === 'tasks/get') call.resolve({ ...LEGACY_TASK, status });
  });
  const { lease, released } = recordingLease(session);
  const call = (method: string) => session.calls.find((c) => c.method === method);
  return { table, session, lease, released, clock, call, setStatus: (s: string) => (status = s) };
}

async function unknown(p: Promise<unknown>, reason: string): Promise<void> {
  await assert.rejects(p, (err: unknown) => {
    assert.ok(err instanceof ProxyError, String(err));
    assert.equal(err.code, 'task_unknown');
    assert.equal(err.data?.['reason'], reason);
    return true;
  });
}

describe('TaskTable', () => {
  it('answers a created task at once, and holds tasks/result open on its session', async () => {
    const s = setup();
    const created = await s.table.adopt(s.lease, LEGACY_TASK, { principal: 'alice', capabilities: ASKING_CAPS, tool: 'slow' });
    assert.equal(created['resultType'], 'task');
    assert.equal(created['status'], 'working');
    const got = await s.table.get(created['taskId'], 'alice');
    assert.equal(got['status'], 'working');
    assert.deepEqual(s.call('tasks/result')?.params, { taskId: 'legacy-1' });
  });

  it('finds no task for another principal, a forged id, or another instance', async () => {
    const key = new Uint8Array(randomBytes(32));
    const s = setup(key);
    const { taskId } = (await s.table.adopt(s.lease, LEGACY_TASK, { principal: 'alice', capabilities: ASKING_CAPS, tool: 'slow' })) as { taskId: string };
    await unknown(s.table.get(taskId, 'bob'), 'unknown');
    // One ciphertext character changed (the tag's last characters carry padding bits that may not count).
    const forged = `${taskId.slice(0, -30)}${taskId.at(-30) === 'A' ? 'B' : 'A'}${taskId.slice(-29)}`;
    await unknown(s.table.get(forged, 'alice'), 'unknown');
    await unknown(s.table.get('not-a-task', 'alice'), 'unknown');
    await unknown(s.table.cancel(taskId, 'bob'), 'unknown');
    const elsewhere = await createSealer(key).seal(taskClaims({ handle: 'x', instance: 'i2/up', principal: 'alice', upstream: 'up' }), Date.now() + 60_000);
    await unknown(s.table.get(elsewhere, 'alice'), 'owner_gone');
  });

  it('parks each question under a fresh key until tasks/update answers it; a bad answer delivers none', async () => {
    const s = setup();
    const { taskId } = (await s.table.adopt(s.lease, LEGACY_TASK, { principal: 'alice', capabilities: ASKING_CAPS, tool: 'slow' })) as { taskId: string };
    const schema = { type: 'object', properties: { ok: { type: 'boolean' } } };
    const first = s.session.ask('elicitation/create', { mode: 'form', message: 'one?', requestedSchema: schema, _meta: { related: 1 } });
    const second = s.session.ask('elicitation/create', { mode: 'form', message: 'two?', requestedSchema: schema });
    const asking = await s.table.get(taskId, 'alice');
    assert.equal(asking['status'], 'input_required');
    assert.deepEqual(Object.keys(asking['inputRequests'] as object), ['elicitation-0', 'elicitation-1']);
    assert.deepEqual((asking['inputRequests'] as Record<string, unknown>)['elicitation-0'], {
      method: 'elicitation/create',
      params: { mode: 'form', message: 'one?', requestedSchema: schema },
    });
    await assert.rejects(
      s.table.update(taskId, 'alice', { 'elicitation-0': { action: 'accept', content: { ok: true } }, 'elicitation-1': { action: 'maybe' } }, []),
      (err: unknown) => err instanceof ProxyError && err.code === 'input_invalid',
    );
    assert.equal(Object.keys((await s.table.get(taskId, 'alice'))['inputRequests'] as object).length, 2);
    assert.deepEqual(await s.table.update(taskId, 'alice', { 'elicitation-0': { action: 'accept', content: { ok: true } } }, []), { resultType: 'complete' });
    assert.deepEqual(await first.answer, { action: 'accept', content: { ok: true } });
    const after = await s.table.get(taskId, 'alice');
    assert.deepEqual(Object.keys(after['inputRequests'] as object), ['elicitation-1']);
    await s.table.update(taskId, 'alice', { 'elicitation-1': { action: 'decline' } }, []);
    assert.deepEqual(await second.answer, { action: 'decline' });
    assert.equal((await s.table.get(taskId, 'alice'))['status'], 'working');
  });

  it('refuses the legacy server a question the client cannot answer', async () => {
    const s = setup();
    await s.table.adopt(s.lease, LEGACY_TASK, { principal: 'alice', capabilities: { extensions: { 'io.modelcontextprotocol/tasks': {} } }, tool: 'slow' });
    await assert.rejects(s.session.ask('sampling/createMessage', { messages: [], maxTokens: 1 }).answer, McpError);
    await assert.rejects(
      s.session.ask('elicitation/create', { mode: 'form', message: 'x', requestedSchema: { type: 'object', properties: {} } }).answer,
      McpError,
    );
  });

  it('inlines the result when tasks/result answers, and gives the session back', async () => {
    const s = setup();
    const { taskId } = (await s.table.adopt(s.lease, LEGACY_TASK, { principal: 'alice', capabilities: ASKING_CAPS, tool: 'slow' })) as { taskId: string };
    s.setStatus('completed');
    s.call('tasks/result')!.resolve({ content: [{ type: 'text', text: 'done' }], _meta: { 'io.modelcontextprotocol/related-task': { taskId: 'legacy-1' } } });
    await tick();
    const done = await s.table.get(taskId, 'alice');
    assert.equal(done['status'], 'completed');
    assert.deepEqual(done['result'], { resultType: 'complete', content: [{ type: 'text', text: 'done' }] });
    assert.deepEqual(s.released, ['release']);
    assert.deepEqual(await s.table.cancel(taskId, 'alice'), { resultType: 'complete' });
  });

  it('cancels upstream, settles cancelled, and closes the session the legacy task ran on', async () => {
    const s = setup();
    const { taskId } = (await s.table.adopt(s.lease, LEGACY_TASK, { principal: 'alice', capabilities: ASKING_CAPS, tool: 'slow' })) as { taskId: string };
    const cancelling = s.table.cancel(taskId, 'alice');
    while (!s.call('tasks/cancel')) await tick(1);
    s.call('tasks/cancel')!.resolve({ ...LEGACY_TASK, status: 'cancelled' });
    assert.deepEqual(await cancelling, { resultType: 'complete' });
    assert.equal((await s.table.get(taskId, 'alice'))['status'], 'cancelled');
    assert.match(s.released[0]!, /^discard/);
  });

  it('fails the task with a reason when its session is lost', async () => {
    const s = setup();
    const { taskId } = (await s.table.adopt(s.lease, LEGACY_TASK, { principal: 'alice', capabilities: ASKING_CAPS, tool: 'slow' })) as { taskId: string };
    await s.session.close('the server process exited');
    await tick();
    const lost = await s.table.get(taskId, 'alice');
    assert.equal(lost['status'], 'failed');
    assert.match((lost['error'] as { message: string }).message, /session ended.*exited/);
  });

  it('drops a task once its ttl has passed', async () => {
    const s = setup();
    const { taskId } = (await s.table.adopt(s.lease, LEGACY_TASK, { principal: 'alice', capabilities: ASKING_CAPS, tool: 'slow' })) as { taskId: string };
    s.clock.advance(60_001);
    await unknown(s.table.get(taskId, 'alice'), 'expired');
    s.table.close();
  });
});
