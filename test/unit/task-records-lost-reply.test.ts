// A task's end written to the store whose reply never came (the store froze, the reply was lost):
// the write may have applied. The owner tells nobody a status until the store settles it, and
// then recognises the record it finds as its own write, not another instance's end.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { ownerShows, type Published, TaskRecords } from '../../src/bridge/tasks/task-records.js';
import type { TaskView } from '../../src/bridge/tasks/task-wire.js';
import { createSealer } from '../../src/state/seal.js';
import { mayPut, type StoredTask, type TaskStore, type Writer, WriteNotSent } from '../../src/state/task-store.js';
import { createLogger } from '../../src/telemetry/logger.js';
import { testClock } from '../support/clock.js';

/** A store in memory whose next writes can apply and then fail (`loseReplies`) or fail unsent (`offline`). */
class LossyStore implements TaskStore {
  readonly records = new Map<string, StoredTask>();
  loseReplies = 0;
  offline = false;
  async putTask(handle: string, task: StoredTask, _expiresAtMs: number, writer: Writer): Promise<boolean> {
    if (this.offline) throw new WriteNotSent('offline');
    if (!mayPut(this.records.get(handle), writer)) return false;
    this.records.set(handle, task);
    if (this.loseReplies > 0) {
      this.loseReplies--;
      throw new Error('no answer within 2000 ms');
    }
    return true;
  }
  async dropTask(handle: string): Promise<void> {
    this.records.delete(handle);
  }
  async getTask(handle: string): Promise<StoredTask | undefined> {
    return this.records.get(handle);
  }
  async versions(handles: readonly string[]): Promise<Array<number | undefined>> {
    return handles.map((h) => this.records.get(h)?.version);
  }
  async markAlive(): Promise<void> {}
  async isAlive(): Promise<boolean> {
    return true;
  }
}

const view = (status: TaskView['status']): TaskView => ({
  taskId: 't',
  status,
  createdAt: '2026-12-04T00:00:00.000Z',
  lastUpdatedAt: '2026-12-04T00:00:01.000Z',
  ttlMs: 60_000,
  ...(status === 'completed' ? { result: { content: [] } } : {}),
});

function setup() {
  const clock = testClock();
  const store = new LossyStore();
  const settled: string[] = [];
  const endedElsewhere: string[] = [];
  const records = new TaskRecords({
    store,
    sealer: createSealer(new Uint8Array(randomBytes(32)), () => clock.now()),
    instance: 'i1/up',
    clock,
    log: createLogger('error'),
    settled: (h) => settled.push(h),
    endedElsewhere: (h) => endedElsewhere.push(h),
  });
  const p: Published = { handle: 'h1', expiresAt: clock.now() + 60_000, stored: false, written: Promise.resolve() };
  return { store, records, p, settled, endedElsewhere };
}

describe('TaskRecords: an end whose write got no reply', () => {
  it('is shown to nobody until the store settles it, then recognised as its own write', async () => {
    const { store, records, p, settled, endedElsewhere } = setup();
    records.write(p, view('working'));
    await p.written;
    store.loseReplies = 1;
    const done = view('completed');
    records.write(p, done);
    await p.written;
    assert.equal(store.records.get('h1')?.final, true, 'the write applied, its reply was lost');
    assert.equal(ownerShows(p, done), undefined, 'neither completed nor working');
    assert.deepEqual(settled, []);

    assert.equal(await records.reconcile([p]), 1);
    await p.written;
    assert.deepEqual(ownerShows(p, done), done);
    assert.deepEqual(settled, ['h1']);
    assert.deepEqual(endedElsewhere, [], 'its own write is not another instance ending the task');
    assert.equal(p.override, undefined);
  });

  it('a write never sent (the store not connected) keeps showing the status before the end until it is written', async () => {
    const { store, records, p, settled } = setup();
    records.write(p, view('working'));
    await p.written;
    store.offline = true;
    const done = view('completed');
    records.write(p, done);
    await p.written;
    assert.equal(ownerShows(p, done)?.status, 'working');
    store.offline = false;
    await records.reconcile([p]);
    await p.written;
    assert.equal(ownerShows(p, done)?.status, 'completed');
    assert.deepEqual(settled, ['h1']);
  });
});
