import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { SessionPool } from '../../src/upstream/pool/pool.js';
import { sessionScoped } from '../../src/upstream/upstream.js';
import { createLogger } from '../../src/telemetry/logger.js';
import { testClock } from '../support/clock.js';
import { FakeSession } from '../support/fake-session.js';

function pool(perSession = 4) {
  const started: FakeSession[] = [];
  const p = new SessionPool<FakeSession>({
    maxSessions: 8,
    callsPerSession: perSession,
    maxWaiting: 8,
    spareSessions: 0,
    waitMs: 50,
    idleTtlMs: 1000,
    log: createLogger('error'),
    clock: testClock(),
    connect: async (caps) => {
      const s = new FakeSession(caps);
      started.push(s);
      return s;
    },
  });
  return { p, started };
}

const ELICIT = { elicitation: { form: {} } } as const;

describe('SessionPool and principals', () => {
  it('never shares a session between the calls of two principals, and shares one among the calls of one', async () => {
    const { p, started } = pool();
    const alice1 = await p.acquire(ELICIT, 'shared', undefined, undefined, 'alice');
    const bob = await p.acquire(ELICIT, 'shared', undefined, undefined, 'bob');
    const alice2 = await p.acquire(ELICIT, 'shared', undefined, undefined, 'alice');
    assert.notEqual(alice1.session, bob.session);
    assert.equal(alice2.session, alice1.session);
    assert.equal(started.length, 2);
  });

  it('gives a session one principal released back to that principal, never to another', async () => {
    const { p, started } = pool();
    const alice = await p.acquire(ELICIT, 'exclusive', undefined, undefined, 'alice');
    alice.release();
    const bob = await p.acquire(ELICIT, 'exclusive', undefined, undefined, 'bob');
    assert.notEqual(bob.session, alice.session);
    bob.release();
    const again = await p.acquire(ELICIT, 'exclusive', undefined, undefined, 'alice');
    assert.equal(again.session, alice.session);
    assert.equal(started.length, 2);
  });

  it('keeps principals apart under the same client roots too', async () => {
    const { p } = pool();
    const roots = [{ uri: 'file:///srv/a' }];
    const alice = await p.acquire(ELICIT, 'shared', roots, undefined, 'alice');
    const bob = await p.acquire(ELICIT, 'shared', roots, undefined, 'bob');
    assert.notEqual(alice.session, bob.session);
  });

  it('lets every caller share sessions when the upstream says its sessions are shared', async () => {
    const { p, started } = pool();
    const alice = await p.acquire(ELICIT, 'shared', undefined, undefined, sessionScoped('shared', 'alice'));
    const bob = await p.acquire(ELICIT, 'shared', undefined, undefined, sessionScoped('shared', 'bob'));
    assert.equal(alice.session, bob.session);
    assert.equal(started.length, 1);
  });

  it('scopes sessions to the principal by default', () => {
    assert.equal(sessionScoped(undefined, 'alice'), 'alice');
    assert.equal(sessionScoped('principal', 'alice'), 'alice');
    assert.equal(sessionScoped('shared', 'alice'), undefined);
  });
});
