// The pool keys sessions by capability set and by the roots they serve: sessions with a client's
// roots are never shared with other roots or with the operator's, and get no spares.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { LegacyCapabilities } from '../../src/protocol/capabilities.js';
import type { RootsBinding } from '../../src/protocol/roots.js';
import { createLogger } from '../../src/telemetry/logger.js';
import { SessionPool } from '../../src/upstream/pool/pool.js';
import { testClock } from '../support/clock.js';
import { FakeSession, tick } from '../support/fake-session.js';

const ROOTS = { roots: { listChanged: true } } as const;
const A = [{ uri: 'file:///a' }];
const B = [{ uri: 'file:///b' }];

function pool(spares = 0) {
  const opened: Array<{ session: FakeSession; caps: LegacyCapabilities; roots: RootsBinding }> = [];
  const p = new SessionPool<FakeSession>({
    maxSessions: 8,
    maxWaiting: 8,
    spareSessions: spares,
    waitMs: 50,
    idleTtlMs: 1000,
    log: createLogger('error'),
    clock: testClock(),
    connect: async (caps, roots) => {
      const session = new FakeSession(caps);
      opened.push({ session, caps, roots });
      return session;
    },
  });
  return { p, opened };
}

describe('SessionPool: roots', () => {
  it('opens each session with the roots it was asked for', async () => {
    const { p, opened } = pool();
    await p.acquire(ROOTS, 'exclusive', A);
    await p.acquire(ROOTS, 'exclusive');
    assert.deepEqual(
      opened.map((o) => o.roots),
      [A, undefined],
    );
  });

  it('never shares a session across different roots, nor with the operator roots', async () => {
    const { p } = pool();
    const a = await p.acquire(ROOTS, 'exclusive', A);
    a.release();
    const b = await p.acquire(ROOTS, 'exclusive', B);
    const operator = await p.acquire(ROOTS, 'shared');
    assert.notEqual(b.session, a.session);
    assert.notEqual(operator.session, a.session);
    assert.notEqual(operator.session, b.session);
  });

  it('reuses an idle session for the same roots (equal lists, not the same array)', async () => {
    const { p, opened } = pool();
    const first = await p.acquire(ROOTS, 'exclusive', A);
    first.release();
    const again = await p.acquire(ROOTS, 'exclusive', [{ uri: 'file:///a' }]);
    assert.equal(again.session, first.session);
    assert.equal(opened.length, 1);
  });

  it("keeps spares for the operator's roots but not for a client's", async () => {
    const { p, opened } = pool(1);
    (await p.acquire(ROOTS, 'exclusive', A)).markWaiting();
    await tick();
    assert.equal(opened.length, 1, 'no spare for a client-roots session');
    (await p.acquire(ROOTS, 'exclusive')).markWaiting();
    await tick();
    assert.equal(opened.length, 3, 'one spare for the operator-roots key');
    assert.equal(opened[2]!.roots, undefined);
  });
});
