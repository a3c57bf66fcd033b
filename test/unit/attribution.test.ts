// Issue 10: which call a legacy request belongs to on a shared session, which lease an interactive
// call takes, and where the pool puts a lease. Pure functions, plain data.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { AskLearner, askKey, interactiveLeaseMode, MAX_LEARNED_KEYS } from '../../src/upstream/ask-learning.js';
import { NO_PROVENANCE, routeNotification, routeServerRequest, type InFlight } from '../../src/upstream/attribution.js';
import { chooseLease, mayWait, waitingLoad } from '../../src/upstream/lease-choice.js';

const calls = (...keys: string[]) => new Map<number, InFlight<string>>(keys.map((key, i) => [i, { holder: `h${i}`, key }]));

describe('routeServerRequest', () => {
  it("gives a request on a call's stream to that call, and one on another request's stream the local answer", () => {
    const r = routeServerRequest('elicitation/create', { kind: 'call', requestId: 1 }, calls('tool:a', 'tool:b'));
    assert.equal(r.kind, 'holder');
    assert.equal(r.kind === 'holder' && r.call.holder, 'h1');
    assert.deepEqual(r.learn, []);
    assert.deepEqual(routeServerRequest('elicitation/create', { kind: 'call', requestId: 7 }, calls('tool:a')), { kind: 'local', learn: [] });
  });

  it('answers locally without provenance when no call is in flight', () => {
    assert.deepEqual(routeServerRequest('roots/list', NO_PROVENANCE, calls()), { kind: 'local', learn: [] });
  });

  it('attributes a request without provenance to the only call in flight, and learns that it asks (roots/list excepted)', () => {
    const r = routeServerRequest('sampling/createMessage', NO_PROVENANCE, calls('tool:a'));
    assert.equal(r.kind === 'holder' && r.call.holder, 'h0');
    assert.deepEqual(r.learn, ['tool:a']);
    assert.deepEqual(routeServerRequest('roots/list', NO_PROVENANCE, calls('tool:a')).learn, []);
  });

  it('refuses a request without provenance among several calls and learns every key in flight; roots/list is answered locally', () => {
    const r = routeServerRequest('elicitation/create', NO_PROVENANCE, calls('tool:a', 'tool:b', 'tool:a'));
    assert.equal(r.kind, 'refuse');
    assert.deepEqual(r.learn, ['tool:a', 'tool:b']);
    assert.match(r.kind === 'refuse' ? r.message : '', /cannot tell which of the 3 calls .* elicitation\/create/);
    assert.deepEqual(routeServerRequest('roots/list', NO_PROVENANCE, calls('tool:a', 'tool:b')), { kind: 'local', learn: [] });
  });

  it('routes a log line by provenance, or to the only call in flight', () => {
    assert.equal(routeNotification({ kind: 'call', requestId: 1 }, calls('a', 'b')), 'h1');
    assert.equal(routeNotification(NO_PROVENANCE, calls('a')), 'h0');
    assert.equal(routeNotification(NO_PROVENANCE, calls('a', 'b')), undefined);
  });
});

describe('interactive lease modes', () => {
  it('keys calls by tool, prompt, and one key for resources/read', () => {
    assert.equal(askKey('tools/call', { name: 'x' }), 'tool:x');
    assert.equal(askKey('prompts/get', { name: 'p' }), 'prompt:p');
    assert.equal(askKey('resources/read', { uri: 'a://b' }), 'resources/read');
  });

  it('shares with provenance, and without it only once the key completed without asking; a key that asked is exclusive', () => {
    const none = new Set<string>();
    assert.equal(interactiveLeaseMode('tool:a', { provenance: true, asked: none, quiet: none }), 'shared');
    assert.equal(interactiveLeaseMode('tool:a', { provenance: false, asked: none, quiet: none }), 'exclusive');
    assert.equal(interactiveLeaseMode('tool:a', { provenance: false, asked: none, quiet: new Set(['tool:a']) }), 'shared');
    assert.equal(interactiveLeaseMode('tool:a', { provenance: true, asked: new Set(['tool:a']), quiet: none }), 'exclusive');
  });

  it('learns: a quiet key shares, until it asks; past the bound everything is exclusive', async () => {
    const l = new AskLearner(false);
    assert.equal(await l.leaseFor('tools/call', { name: 'a' }), 'exclusive');
    l.completedQuietly('tool:a');
    assert.equal(await l.leaseFor('tools/call', { name: 'a' }), 'shared');
    l.learn(['tool:a']);
    l.completedQuietly('tool:a');
    assert.equal(await l.leaseFor('tools/call', { name: 'a' }), 'exclusive');
    const full = new AskLearner(true);
    full.learn(Array.from({ length: MAX_LEARNED_KEYS }, (_, i) => `tool:${i}`));
    assert.equal(await full.leaseFor('tools/call', { name: 'never-seen' }), 'exclusive');
  });
});

describe('chooseLease', () => {
  const s = (shared: number, held = false) => ({ shared, held });
  it('gives an exclusive lease an unused session, else a new one, else the queue', () => {
    assert.deepEqual(chooseLease('exclusive', [s(1), s(0, true), s(0)], [], true, 4), { kind: 'take', index: 2 });
    assert.deepEqual(chooseLease('exclusive', [s(1)], [], true, 4), { kind: 'open' });
    assert.deepEqual(chooseLease('exclusive', [s(1)], [], false, 4), { kind: 'queue' });
  });

  it('packs shared leases onto the fullest session under the cap, then a starting one, then a new one', () => {
    assert.deepEqual(chooseLease('shared', [s(1), s(3), s(4), s(0, true)], [], true, 4), { kind: 'take', index: 1 });
    assert.deepEqual(chooseLease('shared', [s(4)], [{ joined: 4 }, { joined: 2 }], true, 4), { kind: 'join', index: 1 });
    assert.deepEqual(chooseLease('shared', [s(4)], [{ joined: 4 }], true, 4), { kind: 'open' });
  });

  it('past every cap with no room, puts a shared lease on the least used session rather than queue it', () => {
    assert.deepEqual(chooseLease('shared', [s(9), s(5), s(0, true)], [], false, 4), { kind: 'take', index: 1 });
    assert.deepEqual(chooseLease('shared', [s(0, true)], [{ joined: 7 }], false, 4), { kind: 'join', index: 0 });
    assert.deepEqual(chooseLease('shared', [s(0, true)], [], false, 4), { kind: 'queue' });
  });
});

describe('the waiting load', () => {
  it('counts an exclusive waiting session as one and a shared waiting call as 1/callsPerSession', () => {
    assert.equal(waitingLoad(2, 128, 256), 2.5);
    assert.equal(mayWait('exclusive', 2, 0, 256, 3), true);
    assert.equal(mayWait('exclusive', 3, 0, 256, 3), false);
    assert.equal(mayWait('shared', 2, 255, 256, 3), true);
    assert.equal(mayWait('shared', 2, 256, 256, 3), false);
  });
});
