import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { gatherDecision } from '../../src/bridge/gather.js';

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
  it('keeps a quiet round open while the legacy process still runs (it was preempted, not done)', () => {
    assert.deepEqual(at({ now: 1001, upstreamRunning: () => true }), { kind: 'wait', ms: 1 });
    assert.deepEqual(at({ now: 1001, settledLastAt: 1000, upstreamRunning: () => true }), { kind: 'wait', ms: 1 });
    assert.deepEqual(at({ now: 1002, upstreamRunning: () => false }), { kind: 'settle' });
  });

  it('still closes at the window while the process runs', () => {
    assert.deepEqual(at({ now: 1024.5, upstreamRunning: () => true }), { kind: 'wait', ms: 0.5 });
    assert.deepEqual(at({ now: 1025, upstreamRunning: () => true }), { kind: 'close' });
    assert.deepEqual(at({ windowMs: 0, upstreamRunning: () => true }), { kind: 'close' });
  });

  it('reads the process only once the quiet period has passed, within the window', () => {
    let reads = 0;
    const running = () => {
      reads++;
      return true;
    };
    assert.deepEqual(at({ now: 1000.5, upstreamRunning: running }), { kind: 'wait', ms: 0.5 });
    assert.deepEqual(at({ now: 1025, upstreamRunning: running }), { kind: 'close' });
    assert.deepEqual(at({ now: 1001, windowMs: 0, upstreamRunning: running }), { kind: 'close' });
    assert.equal(reads, 0);
    assert.deepEqual(at({ now: 1001, upstreamRunning: running }), { kind: 'wait', ms: 1 });
    assert.equal(reads, 1);
    assert.deepEqual(at({ now: 1003, windowMs: 3, quietMs: 10, upstreamRunning: running }), { kind: 'close' }, 'a quiet period longer than the window');
    assert.deepEqual(at({ now: 1002.5, windowMs: 3, quietMs: 10, upstreamRunning: running }), { kind: 'wait', ms: 0.5 });
    assert.equal(reads, 1, 'a window no longer than the quiet period closes the round without a read');
    assert.deepEqual(at({ now: 1001, upstreamRunning: () => undefined }), { kind: 'settle' }, 'unknown: timing alone');
    assert.deepEqual(at({ now: 1004, lateMs: 3, upstreamRunning: running }), { kind: 'wait', ms: 1 });
    assert.equal(reads, 1, 'not read when a late wake already keeps the round open');
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
