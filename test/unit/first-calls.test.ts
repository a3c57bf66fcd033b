// Of a burst of calls to a tool not known to ask or not, the first is a runner and finds out; the
// others wait for it, up to FIRST_CALL_WAIT_MS, instead of queueing for runner slots, and then share
// if it completed without asking (or asked tied), or are runners if it asked untied.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { AskLearner, FIRST_CALL_WAIT_MS, MAX_LEARNED_KEYS } from '../../src/upstream/ask-learning.js';
import { testClock } from '../support/clock.js';

const TOOL = { name: 'slow' };
const settledWithin = async <T>(p: Promise<T>, ms = 50): Promise<T | 'pending'> =>
  Promise.race([p, new Promise<'pending'>((resolve) => setTimeout(() => resolve('pending'), ms))]);

describe('first calls of a tool not known either way', () => {
  it('makes the first a runner and lets the others share once it completed without asking', async () => {
    const learner = new AskLearner(() => {}, testClock());
    assert.equal(await learner.leaseFor('tools/call', TOOL), 'runner');
    const second = learner.leaseFor('tools/call', TOOL);
    const third = learner.leaseFor('tools/call', TOOL);
    assert.equal(await settledWithin(second), 'pending', 'waits for the first call');
    learner.completedQuietly('tool:slow');
    assert.deepEqual(await Promise.all([second, third]), ['shared', 'shared']);
    assert.equal(await learner.leaseFor('tools/call', TOOL), 'shared');
  });

  it('makes the others runners once the first asked untied, and lets them share once it asked tied', async () => {
    const learner = new AskLearner(() => {}, testClock());
    assert.equal(await learner.leaseFor('tools/call', TOOL), 'runner');
    const second = learner.leaseFor('tools/call', TOOL);
    learner.learn({ tied: [], untied: ['tool:slow'], exclusive: [] });
    assert.equal(await second, 'runner');
    const tied = new AskLearner(() => {}, testClock());
    assert.equal(await tied.leaseFor('tools/call', TOOL), 'runner');
    const next = tied.leaseFor('tools/call', TOOL);
    tied.learn({ tied: ['tool:slow'], untied: [], exclusive: [] });
    assert.equal(await next, 'shared');
  });

  it('waits on the first call of the same key only', async () => {
    const learner = new AskLearner(() => {}, testClock());
    assert.equal(await learner.leaseFor('tools/call', TOOL), 'runner');
    assert.equal(await settledWithin(learner.leaseFor('tools/call', { name: 'other' })), 'runner');
    assert.equal(await settledWithin(learner.leaseFor('prompts/get', TOOL)), 'runner');
  });

  it('stops waiting after FIRST_CALL_WAIT_MS, and a call after that is a first call again', async () => {
    const clock = testClock();
    const learner = new AskLearner(() => {}, clock);
    assert.equal(await learner.leaseFor('tools/call', TOOL), 'runner');
    const started = performance.now();
    assert.equal(await learner.leaseFor('tools/call', TOOL), 'runner', 'the first told nothing in time');
    assert.ok(performance.now() - started >= FIRST_CALL_WAIT_MS - 5, 'waited the whole bound');
    // The first call's window is over: the next call finds out itself, at once.
    assert.equal(await settledWithin(learner.leaseFor('tools/call', TOOL)), 'runner');
    const waiting = learner.leaseFor('tools/call', TOOL);
    assert.equal(await settledWithin(waiting), 'pending', 'the new first call is waited for');
    learner.completedQuietly('tool:slow');
    assert.equal(await waiting, 'shared');
  });

  it('never waits for a key already known', async () => {
    const learner = new AskLearner(() => {}, testClock());
    learner.learn({ tied: [], untied: ['tool:slow'], exclusive: [] });
    assert.equal(await learner.leaseFor('tools/call', TOOL), 'runner');
    assert.equal(await settledWithin(learner.leaseFor('tools/call', TOOL)), 'runner');
  });

  it('keeps at most MAX_LEARNED_KEYS first calls: stale ones go, and past the bound nobody waits', async () => {
    const clock = testClock();
    const learner = new AskLearner(() => {}, clock);
    for (let i = 0; i < MAX_LEARNED_KEYS; i++) await learner.leaseFor('tools/call', { name: `t${i}` });
    // Full of running first calls: a new key's call is not registered, so the next one does not wait.
    assert.equal(await learner.leaseFor('tools/call', { name: 'late' }), 'runner');
    assert.equal(await settledWithin(learner.leaseFor('tools/call', { name: 'late' })), 'runner');
    // Once those first calls are too old to be waited on, they make room.
    clock.advance(FIRST_CALL_WAIT_MS);
    assert.equal(await learner.leaseFor('tools/call', { name: 'later' }), 'runner');
    assert.equal(await settledWithin(learner.leaseFor('tools/call', { name: 'later' })), 'pending');
  });
});
