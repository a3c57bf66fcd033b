import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { chooseSuspension, operatorChoice, type SuspendPolicy } from '../../src/bridge/suspend-mode.js';
import { UnstableQuestions } from '../../src/bridge/unstable-questions.js';
import { MemoryLedger } from '../../src/state/ledger.js';
import { testClock } from '../support/clock.js';

const policy = (p: Partial<SuspendPolicy> = {}): SuspendPolicy => ({ default: 'auto', replay: [], hold: [], ...p });

describe('chooseSuspension', () => {
  it('auto replays prompts/get and resources/read', () => {
    assert.equal(chooseSuspension('prompts/get', 'greet', policy(), undefined).mode, 'replay');
    assert.equal(chooseSuspension('resources/read', 'fixture://x', policy(), undefined).mode, 'replay');
  });

  it('auto replays tools annotated read-only or idempotent and holds every other tool', () => {
    assert.equal(chooseSuspension('tools/call', 't', policy(), { readOnlyHint: true }).mode, 'replay');
    assert.equal(chooseSuspension('tools/call', 't', policy(), { idempotentHint: true }).mode, 'replay');
    assert.equal(chooseSuspension('tools/call', 't', policy(), { readOnlyHint: false, idempotentHint: false }).mode, 'hold');
    assert.equal(chooseSuspension('tools/call', 't', policy(), { readOnlyHint: 'true' }).mode, 'hold');
    assert.equal(chooseSuspension('tools/call', 't', policy(), undefined).mode, 'hold');
  });

  it('lets the operator decide: tool lists first, then a fixed default', () => {
    assert.equal(chooseSuspension('tools/call', 't', policy({ replay: ['t'] }), undefined).mode, 'replay');
    assert.equal(chooseSuspension('tools/call', 't', policy({ hold: ['t'] }), { readOnlyHint: true }).mode, 'hold');
    assert.equal(chooseSuspension('tools/call', 't', policy({ default: 'replay', hold: ['t'] }), undefined).mode, 'hold');
    assert.equal(chooseSuspension('tools/call', 'u', policy({ default: 'replay' }), undefined).mode, 'replay');
    assert.equal(chooseSuspension('prompts/get', 'greet', policy({ default: 'hold' }), undefined).mode, 'hold');
    assert.equal(chooseSuspension('tools/call', 'u', policy({ default: 'hold' }), { readOnlyHint: true }).mode, 'hold');
  });

  it('auto holds what was seen asking other questions when run again; the operator choice stands', () => {
    assert.deepEqual(chooseSuspension('tools/call', 't', policy(), { readOnlyHint: true }, true), {
      mode: 'hold',
      why: 'its questions changed when it ran again',
    });
    assert.equal(chooseSuspension('prompts/get', 'greet', policy(), undefined, true).mode, 'hold');
    assert.equal(chooseSuspension('tools/call', 't', policy({ replay: ['t'] }), undefined, true).mode, 'replay');
    assert.equal(chooseSuspension('tools/call', 't', policy({ default: 'replay' }), undefined, true).mode, 'replay');
    assert.equal(operatorChoice('tools/call', 't', policy({ default: 'replay' }))?.mode, 'replay');
    assert.equal(operatorChoice('tools/call', 't', policy()), undefined);
  });

  it('names the tool lists only for tools (prompts and resources share no namespace with them)', () => {
    assert.equal(chooseSuspension('prompts/get', 't', policy({ hold: ['t'] }), undefined).mode, 'replay');
  });
});

describe('UnstableQuestions', () => {
  it('learns a tool, a prompt or reads at all, once each, and nothing past its bound', () => {
    const table = new UnstableQuestions(2);
    assert.equal(table.learn('tools/call', { name: 'slots' }), true);
    assert.equal(table.learn('tools/call', { name: 'slots', arguments: { day: 'mon' } }), false, 'known already');
    assert.equal(table.has('tools/call', { name: 'slots' }), true);
    assert.equal(table.has('prompts/get', { name: 'slots' }), false, 'a prompt is not the tool of the same name');
    assert.equal(table.learn('resources/read', { uri: 'x://a' }), true);
    assert.equal(table.has('resources/read', { uri: 'x://b' }), true, 'one key for every read');
    assert.equal(table.learn('tools/call', { name: 'other' }), false, 'past the bound');
    assert.equal(table.has('tools/call', { name: 'other' }), false);
  });
});

describe('MemoryLedger', () => {
  it('lets each id be consumed once until it expires, and forgets it afterwards', async () => {
    const clock = testClock();
    const ledger = new MemoryLedger(clock);
    const t0 = clock.now();
    assert.equal(await ledger.consume('a', t0 + 1000), true);
    assert.equal(await ledger.consume('a', t0 + 1000), false);
    assert.equal(await ledger.consume('b', t0 + 1000), true);
    clock.advance(1000);
    ledger.sweep();
    assert.equal(ledger.size, 0);
    await ledger.close();
  });
});
