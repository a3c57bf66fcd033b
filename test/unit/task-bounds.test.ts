// What is kept of finished tasks (bridge/tasks/task-bounds.ts): a result too large fails its task,
// and a principal's oldest finished tasks go once it keeps too many or too many bytes. Plain data.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { finishedToDrop, keptView, resultBytes } from '../../src/bridge/tasks/task-bounds.js';
import type { TaskView } from '../../src/bridge/tasks/task-wire.js';

const done = (text: string): TaskView => ({
  taskId: 't',
  status: 'completed',
  createdAt: '2026-12-04T00:00:00.000Z',
  lastUpdatedAt: '2026-12-04T00:00:01.000Z',
  ttlMs: 60_000,
  result: { content: [{ type: 'text', text }] },
});

describe('keptView', () => {
  it('keeps a result within the limit as it is', () => {
    const view = done('small');
    assert.equal(keptView(view, resultBytes(view), 1024), view);
  });
  it('fails a task whose result is over the limit, saying so, and keeps no result', () => {
    const view = done('x'.repeat(5000));
    const bytes = resultBytes(view);
    assert.ok(bytes > 5000);
    const kept = keptView(view, bytes, 4096);
    assert.equal(kept.status, 'failed');
    assert.equal('result' in kept, false);
    assert.match(kept.error!.message, new RegExp(`\\(${bytes} bytes\\).*--max-task-result-bytes 4096`));
    assert.equal(kept.taskId, 't');
  });
  it('leaves failed and cancelled tasks alone', () => {
    const failed: TaskView = { ...done(''), status: 'failed', error: { code: -32603, message: 'x'.repeat(9000) } };
    delete failed.result;
    assert.equal(keptView(failed, resultBytes(failed), 1024), failed);
  });
});

describe('finishedToDrop', () => {
  const f = (handle: string, endedAt: number, bytes = 10) => ({ handle, endedAt, bytes });
  it('drops the oldest past the count', () => {
    assert.deepEqual(finishedToDrop([f('c', 3), f('a', 1), f('b', 2)], { maxFinished: 2, maxFinishedBytes: 1000 }), ['a']);
    assert.deepEqual(finishedToDrop([f('a', 1), f('b', 2)], { maxFinished: 2, maxFinishedBytes: 1000 }), []);
  });
  it('drops the oldest past the bytes, and always keeps the newest', () => {
    assert.deepEqual(finishedToDrop([f('a', 1, 600), f('b', 2, 600), f('c', 3, 100)], { maxFinished: 10, maxFinishedBytes: 1000 }), ['a']);
    assert.deepEqual(finishedToDrop([f('a', 1, 600), f('b', 2, 5000)], { maxFinished: 10, maxFinishedBytes: 1000 }), ['a']);
  });
});
