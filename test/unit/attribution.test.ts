// Which call a legacy request belongs to on a shared session, which lease an interactive call
// takes, and where the pool puts a lease. Pure functions, plain data.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { AskLearner, askKey, interactiveLeaseMode, MAX_LEARNED_KEYS } from '../../src/upstream/ask-learning.js';
import { NO_PROVENANCE, routeNotification, routeServerRequest, type InFlight, type Learning } from '../../src/upstream/attribution.js';
import { chooseLease, mayWait, waitingLoad } from '../../src/upstream/pool/lease-choice.js';

interface H {
  name: string;
  parked?: boolean;
}
/** `key`, or `key!` for a call leased as a runner (untied), `key~` for a parked runner. */
const calls = (...specs: string[]) =>
  new Map<number, InFlight<H>>(
    specs.map((spec, i) => {
      const parked = spec.endsWith('~');
      const untied = parked || spec.endsWith('!');
      const key = spec.replace(/[!~]$/, '');
      return [i, { holder: { name: `h${i}`, parked }, key, untied }];
    }),
  );
const NONE: Learning = { tied: [], untied: [], exclusive: [] };
const holderOf = (r: ReturnType<typeof routeServerRequest<H>>) => (r.kind === 'holder' ? r.call.holder.name : r.kind);

describe('routeServerRequest', () => {
  it("gives a request on a call's stream to that call and learns its key asks tied; one on another request's stream gets the local answer", () => {
    const r = routeServerRequest('elicitation/create', { kind: 'call', requestId: 1 }, calls('tool:a!', 'tool:b!'));
    assert.equal(holderOf(r), 'h1');
    assert.deepEqual(r.learn, { ...NONE, tied: ['tool:b'] });
    assert.deepEqual(routeServerRequest('elicitation/create', { kind: 'call', requestId: 7 }, calls('tool:a')), { kind: 'local', learn: NONE });
  });

  it('answers locally without provenance only when no call is in flight', () => {
    assert.deepEqual(routeServerRequest('roots/list', NO_PROVENANCE, calls()), { kind: 'local', learn: NONE });
    assert.deepEqual(routeServerRequest('elicitation/create', NO_PROVENANCE, calls()), { kind: 'local', learn: NONE });
  });

  it("gives a request without provenance to the session's only call while it waits for its client, and leases its key exclusively from then on", () => {
    const r = routeServerRequest('elicitation/create', NO_PROVENANCE, calls('tool:a~'));
    assert.equal(holderOf(r), 'h0');
    assert.deepEqual(r.learn, { ...NONE, exclusive: ['tool:a'] });
    const shared = routeServerRequest(
      'sampling/createMessage',
      NO_PROVENANCE,
      new Map([[0, { holder: { name: 'h0', parked: true }, key: 'tool:s', untied: false }]]),
    );
    assert.equal(holderOf(shared), 'h0', 'a shared call too');
    const roots = routeServerRequest('roots/list', NO_PROVENANCE, calls('tool:a~'));
    assert.equal(holderOf(roots), 'h0');
    assert.deepEqual(roots.learn, NONE);
    assert.equal(routeServerRequest('elicitation/create', NO_PROVENANCE, calls('tool:a~'), true).kind, 'local', 'unless it is being let go');
  });

  it('refuses a request without provenance that one of several waiting calls could have sent, and marks their keys exclusive; roots/list is answered locally', () => {
    const r = routeServerRequest('elicitation/create', NO_PROVENANCE, calls('tool:a~', 'tool:b~'));
    assert.equal(r.kind, 'refuse');
    assert.deepEqual(r.learn, { ...NONE, exclusive: ['tool:a', 'tool:b'] });
    assert.match(r.kind === 'refuse' ? r.message : '', /cannot tell which of the 2 waiting calls/);
    assert.deepEqual(routeServerRequest('roots/list', NO_PROVENANCE, calls('tool:a~', 'tool:b~')), { kind: 'local', learn: NONE });
  });

  it('attributes a request without provenance to the one running runner, beside parked runners and free calls', () => {
    const r = routeServerRequest('sampling/createMessage', NO_PROVENANCE, calls('tool:a~', 'tool:echo', 'tool:b!', 'tool:a~', 'tool:tied'));
    assert.equal(holderOf(r), 'h2');
    assert.deepEqual(r.learn, { ...NONE, untied: ['tool:b'] });
    assert.deepEqual(routeServerRequest('roots/list', NO_PROVENANCE, calls('tool:a~', 'tool:b!')).learn, NONE);
  });

  it('attributes it to the only running call when no runner runs (a key that changed how it asks), unless a runner is being let go', () => {
    const r = routeServerRequest('elicitation/create', NO_PROVENANCE, calls('tool:a~', 'tool:echo'));
    assert.equal(holderOf(r), 'h1');
    assert.deepEqual(r.learn, { ...NONE, untied: ['tool:echo'] });
    assert.equal(routeServerRequest('elicitation/create', NO_PROVENANCE, calls('tool:a~', 'tool:echo'), true).kind, 'local');
  });

  it('refuses a request that several running candidates could have sent and marks their keys exclusive; roots/list is answered locally', () => {
    const woken = calls('tool:a!', 'tool:b!', 'tool:echo');
    const r = routeServerRequest('elicitation/create', NO_PROVENANCE, woken);
    assert.equal(r.kind, 'refuse');
    assert.deepEqual(r.learn, { ...NONE, exclusive: ['tool:a', 'tool:b'] });
    assert.deepEqual(r.kind === 'refuse' && r.candidates, ['tool:a', 'tool:b']);
    assert.match(r.kind === 'refuse' ? r.message : '', /cannot tell which of the 2 running calls .* elicitation\/create/);
    assert.deepEqual(routeServerRequest('roots/list', NO_PROVENANCE, woken), { kind: 'local', learn: NONE });
    const free = routeServerRequest('elicitation/create', NO_PROVENANCE, calls('tool:x', 'tool:y', 'tool:z~'));
    assert.deepEqual(free.learn, { ...NONE, exclusive: ['tool:x', 'tool:y'] }, 'no runner: every running call is a suspect');
  });

  it('routes a log line by provenance, or to the only running call', () => {
    assert.equal(routeNotification({ kind: 'call', requestId: 1 }, calls('a', 'b'))?.name, 'h1');
    assert.equal(routeNotification(NO_PROVENANCE, calls('a'))?.name, 'h0');
    assert.equal(routeNotification(NO_PROVENANCE, calls('a~', 'b!'))?.name, 'h1');
    assert.equal(routeNotification(NO_PROVENANCE, calls('a', 'b')), undefined);
  });
});

describe('interactive lease modes', () => {
  it('keys calls by tool, prompt, and one key for resources/read', () => {
    assert.equal(askKey('tools/call', { name: 'x' }), 'tool:x');
    assert.equal(askKey('prompts/get', { name: 'p' }), 'prompt:p');
    assert.equal(askKey('resources/read', { uri: 'a://b' }), 'resources/read');
  });

  it('shares a key known to ask tied or never; a key not known either way or asking untied runs as a runner; a suspect key is exclusive', () => {
    const none = new Set<string>();
    const a = new Set(['tool:a']);
    assert.equal(interactiveLeaseMode('tool:a', { exclusive: none, untied: none, free: none }), 'runner');
    assert.equal(interactiveLeaseMode('tool:a', { exclusive: none, untied: none, free: a }), 'shared');
    assert.equal(interactiveLeaseMode('tool:a', { exclusive: none, untied: a, free: none }), 'runner');
    assert.equal(interactiveLeaseMode('tool:a', { exclusive: a, untied: a, free: none }), 'exclusive');
  });

  it('learns: a quiet key shares until it asks untied, a tied asker shares, a suspect is exclusive; past the bound a new key is a runner', async () => {
    const l = new AskLearner();
    assert.equal(await l.leaseFor('tools/call', { name: 'a' }), 'runner');
    l.completedQuietly('tool:a');
    assert.equal(await l.leaseFor('tools/call', { name: 'a' }), 'shared');
    l.learn({ ...NONE, untied: ['tool:a'] });
    l.completedQuietly('tool:a');
    assert.equal(await l.leaseFor('tools/call', { name: 'a' }), 'runner');
    l.learn({ ...NONE, tied: ['tool:t'] });
    assert.equal(await l.leaseFor('tools/call', { name: 't' }), 'shared');
    l.learn({ ...NONE, exclusive: ['tool:a'] });
    assert.equal(await l.leaseFor('tools/call', { name: 'a' }), 'exclusive');
    const full = new AskLearner();
    full.learn({ ...NONE, untied: Array.from({ length: MAX_LEARNED_KEYS }, (_, i) => `tool:${i}`) });
    assert.equal(await full.leaseFor('tools/call', { name: 'never-seen' }), 'runner');
  });
});

describe('chooseLease', () => {
  const s = (shared: number, held = false, runner = false, resuming = 0) => ({ shared, held, runner, resuming });
  it('gives an exclusive lease an unused session, else a new one, else the queue', () => {
    assert.deepEqual(chooseLease('exclusive', [s(1), s(0, true), s(0)], [], true, 4), { kind: 'take', index: 2 });
    assert.deepEqual(chooseLease('exclusive', [s(1)], [], true, 4), { kind: 'open' });
    assert.deepEqual(chooseLease('exclusive', [s(1)], [], false, 4), { kind: 'queue' });
  });

  it('packs shared leases onto the fullest session under the cap, then a starting one, then a new one', () => {
    assert.deepEqual(chooseLease('shared', [s(1), s(3), s(4), s(0, true)], [], true, 4), { kind: 'take', index: 1 });
    assert.deepEqual(
      chooseLease(
        'shared',
        [s(4)],
        [
          { joined: 4, runner: false },
          { joined: 2, runner: false },
        ],
        true,
        4,
      ),
      { kind: 'join', index: 1 },
    );
    assert.deepEqual(chooseLease('shared', [s(4)], [{ joined: 4, runner: false }], true, 4), { kind: 'open' });
  });

  it('past every cap with no room, puts a shared lease on the least used session rather than queue it', () => {
    assert.deepEqual(chooseLease('shared', [s(9), s(5), s(0, true)], [], false, 4), { kind: 'take', index: 1 });
    assert.deepEqual(chooseLease('shared', [s(0, true)], [{ joined: 7, runner: false }], false, 4), { kind: 'join', index: 0 });
    assert.deepEqual(chooseLease('shared', [s(0, true)], [], false, 4), { kind: 'queue' });
  });

  it('gives a runner the fullest free runner slot where no answer waits, shared with parked and free calls', () => {
    assert.deepEqual(chooseLease('runner', [s(3, false, true), s(2), s(3, false, false, 1), s(1)], [], true, 4), { kind: 'take', index: 1 });
    assert.deepEqual(chooseLease('runner', [s(0, true), s(2, false, true)], [{ joined: 3, runner: false }], true, 4), { kind: 'join', index: 0 });
  });

  it('starts one session at a time for runners, else queues them; past the cap with no room, takes any free slot', () => {
    assert.deepEqual(chooseLease('runner', [s(2, false, true)], [], true, 4), { kind: 'open' });
    assert.deepEqual(chooseLease('runner', [s(2, false, true)], [{ joined: 1, runner: true }], true, 4), { kind: 'queue' });
    assert.deepEqual(chooseLease('runner', [s(2, false, true)], [], false, 4), { kind: 'queue' });
    assert.deepEqual(chooseLease('runner', [s(9), s(5), s(4, false, true)], [], false, 4), { kind: 'take', index: 1 });
  });
});

describe('chooseLease with a preferred session', () => {
  const s = (shared: number, held = false, runner = false, resuming = 0) => ({ shared, held, runner, resuming });
  it('takes the preferred session when the lease fits there, and chooses as usual when it does not', () => {
    assert.deepEqual(chooseLease('runner', [s(3), s(1)], [], true, 4, 1), { kind: 'take', index: 1 });
    assert.deepEqual(chooseLease('runner', [s(3), s(1, false, true)], [], true, 4, 1), { kind: 'take', index: 0 });
    assert.deepEqual(chooseLease('exclusive', [s(0), s(0)], [], true, 4, 1), { kind: 'take', index: 1 });
    assert.deepEqual(chooseLease('shared', [s(2), s(4)], [], true, 4, 1), { kind: 'take', index: 0 });
  });
});

describe('the waiting load', () => {
  it('counts an exclusive waiting session as one and a shared or parked runner call as 1/callsPerSession', () => {
    assert.equal(waitingLoad(2, 128, 256), 2.5);
    assert.equal(mayWait('exclusive', 2, 0, 256, 3), true);
    assert.equal(mayWait('exclusive', 3, 0, 256, 3), false);
    assert.equal(mayWait('shared', 2, 255, 256, 3), true);
    assert.equal(mayWait('runner', 2, 256, 256, 3), false);
  });
});
