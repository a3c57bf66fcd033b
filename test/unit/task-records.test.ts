// The rules behind one final status per task: which write may replace a stored record
// (state/task-store.ts mayPut), what the owner shows of a task whose end the store has not
// confirmed (bridge/tasks/task-records.ts ownerShows), and when its own liveness mark has lapsed
// (bridge/tasks/task-liveness.ts markLapsed). Plain data only.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { markLapsed } from '../../src/bridge/tasks/task-liveness.js';
import { ownerShows, type TaskRecord } from '../../src/bridge/tasks/task-records.js';
import type { TaskView } from '../../src/bridge/tasks/task-wire.js';
import { mayPut } from '../../src/state/task-store.js';

const running = { version: 3, final: false };
const final = { version: 4, final: true };

describe('mayPut', () => {
  it('lets the owner write over nothing and over any record not final', () => {
    assert.equal(mayPut(undefined, { kind: 'owner' }), true);
    assert.equal(mayPut(running, { kind: 'owner' }), true);
    assert.equal(mayPut({ version: 9, final: false }, { kind: 'owner' }), true, 'a record rolled back or forged is replaced');
  });
  it('never lets a final record be replaced', () => {
    assert.equal(mayPut(final, { kind: 'owner' }), false, "the owner's completed after a reader's failed");
    assert.equal(mayPut(final, { kind: 'reader', expected: 4 }), false);
  });
  it('lets a reader fail a task only as it read it', () => {
    assert.equal(mayPut(running, { kind: 'reader', expected: 3 }), true);
    assert.equal(mayPut(running, { kind: 'reader', expected: 2 }), false, 'the owner wrote since');
    assert.equal(mayPut(undefined, { kind: 'reader', expected: 0 }), false, 'no record: nothing to fail');
  });
});

const view = (status: TaskView['status'], extra: Partial<TaskView> = {}): TaskView => ({
  taskId: 't',
  status,
  createdAt: '2026-12-04T00:00:00.000Z',
  lastUpdatedAt: '2026-12-04T00:00:01.000Z',
  ttlMs: 60_000,
  ...extra,
});
const record = (v: TaskView): TaskRecord => {
  const { taskId: _id, ...rest } = v;
  return { h: 'h', o: 'i1', e: 1, v: 2, view: rest };
};

describe('ownerShows', () => {
  const live = view('input_required', { inputRequests: {} });
  it('shows a running task as it is', () => {
    assert.equal(ownerShows({ stored: false, live }, live), live);
  });
  it('shows a completion or a cancellation only once the store has it', () => {
    const done = view('completed', { result: { content: [] } });
    assert.equal(ownerShows({ stored: false, live, record: record(done) }, done), live);
    assert.equal(ownerShows({ stored: true, live, record: record(done) }, done), done);
    const cancelled = view('cancelled');
    assert.equal(ownerShows({ stored: false, live, record: record(cancelled) }, cancelled), live);
  });
  it('shows failed at once: it is all another instance would write', () => {
    const failed = view('failed', { error: { code: -32603, message: 'x' } });
    assert.equal(ownerShows({ stored: false, live, record: record(failed) }, failed), failed);
  });
  it("shows another instance's final status over its own", () => {
    const theirs = record(view('failed', { error: { code: -32603, message: 'owner gone' } })).view;
    const shown = ownerShows({ stored: true, live, override: theirs }, view('completed', { result: {} }));
    assert.equal(shown?.status, 'failed');
    assert.equal(shown?.taskId, 't');
    assert.equal('result' in (shown ?? {}), false);
  });
});

describe('markLapsed', () => {
  it('counts a mark as lapsed once its whole life has passed since it was sent, and no mark as never lapsed', () => {
    assert.equal(markLapsed(undefined, 1_000_000, 15_000), false);
    assert.equal(markLapsed(100_000, 114_999, 15_000), false);
    assert.equal(markLapsed(100_000, 115_000, 15_000), true, 'a pause as long as the mark');
  });
});

describe('ownerShows, an end written with no reply', () => {
  const live = view('working');
  const done = view('completed', { result: { content: [] } });
  it('shows nothing while the store may or may not have it: neither the end nor the status before it', () => {
    assert.equal(ownerShows({ stored: false, live, record: record(done), unsure: record(done) }, done), undefined);
  });
  it('shows a running task as it is, whatever write had no reply', () => {
    const asking = view('input_required', { inputRequests: {} });
    assert.equal(ownerShows({ stored: false, live, record: record(asking), unsure: record(asking) }, asking), asking);
  });
});
