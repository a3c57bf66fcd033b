import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { GATHER_RUNNING_TURNS, gatherDecision } from '../../src/bridge/gather.js';

/** A process with a thread always running beside its main thread, which runs or waits as `main` says. */
const busy = (main: boolean) => (threads: 'all' | 'main') => threads !== 'main' || main;

const at = (over: Partial<Parameters<typeof gatherDecision>[0]>) =>
  gatherDecision({ firstAt: 1000, lastAt: 1000, now: 1000, windowMs: 25, quietMs: 1, ...over });

describe('gather decision', () => {
  it('waits for a quiet moment after the latest request, not the whole window', () => {
    assert.deepEqual(at({}), { kind: 'wait', ms: 1 });
    assert.deepEqual(at({ now: 1001, settledLastAt: 1000 }), { kind: 'close' });
  });

  it('lets the loop read pending I/O once before it closes a quiet round', () => {
    assert.deepEqual(at({ now: 1001 }), { kind: 'settle' });
    assert.deepEqual(at({ now: 1009 }), { kind: 'settle' }, 'a timer that fired late still settles first');
    assert.deepEqual(at({ now: 1001, settledLastAt: 1000 }), { kind: 'close' });
  });

  it('a request read during the settle turn reopens the quiet period', () => {
    assert.deepEqual(at({ lastAt: 1001, now: 1001, settledLastAt: 1000 }), { kind: 'wait', ms: 1 });
    assert.deepEqual(at({ lastAt: 1001, now: 1002, settledLastAt: 1000 }), { kind: 'settle' });
  });

  it('keeps the round open while requests keep arriving', () => {
    assert.deepEqual(at({ lastAt: 1010, now: 1010 }), { kind: 'wait', ms: 1 });
    assert.deepEqual(at({ lastAt: 1010, now: 1011, settledLastAt: 1010 }), { kind: 'close' });
  });

  it('closes at the configured window however busy the session is', () => {
    assert.deepEqual(at({ lastAt: 1024, now: 1024 }), { kind: 'wait', ms: 1 });
    assert.deepEqual(at({ lastAt: 1025, now: 1025 }), { kind: 'close' });
    assert.deepEqual(at({ lastAt: 1030, now: 1030, quietMs: 10 }), { kind: 'close' });
    assert.deepEqual(at({ now: 1025 }), { kind: 'close' }, 'no settle turn past the window');
  });

  it('closes at once with a window of 0', () => {
    assert.deepEqual(at({ windowMs: 0 }), { kind: 'close' });
  });

  it('never waits longer than the window for quiet', () => {
    assert.deepEqual(at({ windowMs: 3, quietMs: 10 }), { kind: 'wait', ms: 3 });
  });

  it('a quiet period as long as the window is the fixed window', () => {
    assert.deepEqual(at({ lastAt: 1005, now: 1005, quietMs: 25 }), { kind: 'wait', ms: 20 });
  });
});

describe('gather decision with a local legacy process', () => {
  it('settles as soon as the process is seen waiting, without waiting for a quiet period', () => {
    assert.deepEqual(at({ upstreamRunning: () => false }), { kind: 'settle', waiting: true });
    assert.deepEqual(at({ now: 1000.2, upstreamRunning: () => false }), { kind: 'settle', waiting: true });
  });

  it('closes once the loop has read its I/O after the process was seen waiting, without reading it again', () => {
    let reads = 0;
    const waiting = () => {
      reads++;
      return false;
    };
    assert.deepEqual(at({ settledLastAt: 1000, upstreamRunning: waiting }), { kind: 'close' });
    assert.equal(reads, 0);
  });

  it('a request read during the settle turn is read for again', () => {
    assert.deepEqual(at({ lastAt: 1000.1, now: 1000.1, settledLastAt: 1000, upstreamRunning: () => false }), { kind: 'settle', waiting: true });
    assert.deepEqual(at({ lastAt: 1000.1, now: 1000.1, settledLastAt: 1000, upstreamRunning: () => true }), { kind: 'recheck' });
  });

  it('reads a running process again after I/O turns, then lets timing and its main thread decide', () => {
    assert.deepEqual(at({ upstreamRunning: busy(false) }), { kind: 'recheck' });
    assert.deepEqual(at({ runningReads: GATHER_RUNNING_TURNS - 1, upstreamRunning: busy(false) }), { kind: 'recheck' });
    assert.deepEqual(at({ runningReads: GATHER_RUNNING_TURNS, upstreamRunning: busy(false) }), { kind: 'wait', ms: 1 }, 'the quiet period first');
    assert.deepEqual(at({ now: 1001, runningReads: GATHER_RUNNING_TURNS, upstreamRunning: busy(true) }), { kind: 'wait', ms: 1 }, 'its main thread runs');
    assert.deepEqual(
      at({ now: 1001, runningReads: GATHER_RUNNING_TURNS, upstreamRunning: busy(false) }),
      { kind: 'settle' },
      'a thread beside a waiting main thread keeps running (a busy worker): quiet is enough',
    );
    assert.deepEqual(at({ now: 1001, settledLastAt: 1000, runningReads: GATHER_RUNNING_TURNS, upstreamRunning: busy(false) }), { kind: 'close' });
  });

  it('reads a running process again only within the quiet period: past it, timing decides', () => {
    assert.deepEqual(at({ now: 1000.5, runningReads: 1, upstreamRunning: busy(false) }), { kind: 'recheck' });
    assert.deepEqual(at({ now: 1001, runningReads: 1, upstreamRunning: busy(false) }), { kind: 'settle' }, 'its main thread waits');
    assert.deepEqual(at({ now: 1001, runningReads: 1, upstreamRunning: () => true }), { kind: 'wait', ms: 1 });
    assert.deepEqual(at({ now: 1003, upstreamRunning: () => false }), { kind: 'settle', waiting: true }, 'the first read is always made');
  });

  it('still closes at the window while the process runs', () => {
    assert.deepEqual(at({ now: 1024.5, runningReads: GATHER_RUNNING_TURNS, upstreamRunning: () => true }), { kind: 'wait', ms: 0.5 });
    assert.deepEqual(at({ now: 1025, upstreamRunning: () => true }), { kind: 'close' });
    assert.deepEqual(at({ windowMs: 0, upstreamRunning: () => true }), { kind: 'close' });
  });

  it('never reads the process past the window or with a window of 0', () => {
    let reads = 0;
    const running = () => {
      reads++;
      return true;
    };
    assert.deepEqual(at({ now: 1025, upstreamRunning: running }), { kind: 'close' });
    assert.deepEqual(at({ windowMs: 0, upstreamRunning: running }), { kind: 'close' });
    assert.equal(reads, 0);
  });

  it('falls back to timing when the process cannot be read (no /proc, the process is gone)', () => {
    assert.deepEqual(at({ upstreamRunning: () => undefined }), { kind: 'wait', ms: 1 });
    assert.deepEqual(at({ now: 1001, upstreamRunning: () => undefined }), { kind: 'settle' });
    assert.deepEqual(at({ now: 1004, lateMs: 3, upstreamRunning: () => undefined }), { kind: 'wait', ms: 1 });
  });
});

describe('gather decision on a busy machine', () => {
  it('keeps a quiet round open for another quiet period when the wait ended late', () => {
    assert.deepEqual(at({ now: 1004, lateMs: 3 }), { kind: 'wait', ms: 1 });
    assert.deepEqual(at({ now: 1004, settledLastAt: 1000, lateMs: 2 }), { kind: 'wait', ms: 1 });
  });

  it('a wait that ended on time, or early because a request came, changes nothing', () => {
    assert.deepEqual(at({ now: 1001, lateMs: 0.9 }), { kind: 'settle' });
    assert.deepEqual(at({ now: 1001, lateMs: -20 }), { kind: 'settle' });
    assert.deepEqual(at({ now: 1001, settledLastAt: 1000, lateMs: 1 }), { kind: 'close' });
  });

  it('never past the window, however late', () => {
    assert.deepEqual(at({ now: 1024, lateMs: 10 }), { kind: 'wait', ms: 1 });
    assert.deepEqual(at({ now: 1030, lateMs: 10 }), { kind: 'close' });
    assert.deepEqual(at({ windowMs: 0, lateMs: 10 }), { kind: 'close' });
  });
});
