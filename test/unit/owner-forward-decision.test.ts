// The route's owner check on a retry it serves itself: the requestState it opened to decide comes
// back with the decision, for the bridge to check instead of decrypting it again. Task ids and
// unreadable states bring nothing back. (Forwarding itself is test/e2e/owner-forward.test.ts.)
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { Request, Response } from 'express';
import { forwardIfForeign, type OwnerForwarding } from '../../src/front/owner-forward.js';
import { holdClaims, replayClaims, taskClaims } from '../../src/state/claims.js';
import { createSealer, type StateClaims } from '../../src/state/seal.js';
import { createLogger } from '../../src/telemetry/logger.js';

const sealer = createSealer(new Uint8Array(randomBytes(32)));
const forwarding: OwnerForwarding = {
  instance: 'instance-A',
  sealer,
  keys: [Buffer.alloc(32, 1)],
  now: Date.now,
  log: createLogger('error'),
  taskStore: false,
};
/** Never touched: a request this instance serves is decided from its body alone. */
const untouched = new Proxy({}, { get: () => assert.fail('the HTTP request or response was used') }) as Request & Response;
const call = (params: Record<string, unknown>, method = 'tools/call') => ({ jsonrpc: '2.0', id: 1, method, params: { name: 'book', ...params } });
const seal = (claims: StateClaims) => sealer.seal(claims, Date.now() + 60_000);
const decide = (body: unknown) => forwardIfForeign(forwarding, untouched, untouched, Buffer.from(JSON.stringify(body)), body);

describe('owner forwarding: a retry this instance serves', () => {
  const held = holdClaims({ handle: 'h1', instance: 'instance-A', round: 1, principal: 'alice', fingerprint: 'fp' });

  it("carries the claims of this instance's held state", async () => {
    assert.deepEqual(await decide(call({ requestState: await seal(held) })), { served: false, opened: held });
  });

  it('carries the claims of a replayed state, whichever instance sealed it', async () => {
    const replay = replayClaims({
      handle: 'h1',
      instance: 'instance-B',
      round: 1,
      principal: 'alice',
      fingerprint: 'fp',
      upstream: 'default',
      record: 'rec',
      legacyVersion: '2025-11-25',
      expiresAt: 1,
      callId: 'c1',
    });
    assert.deepEqual(await decide(call({ requestState: await seal(replay) })), { served: false, opened: replay });
  });

  it('carries nothing for an unreadable state, a task id or a request without state', async () => {
    assert.deepEqual(await decide(call({ requestState: 'not-a-state' })), { served: false });
    assert.deepEqual(await decide(call({})), { served: false });
    const task = taskClaims({ handle: 'h1', instance: 'instance-A', principal: 'alice', upstream: 'default' });
    assert.deepEqual(await decide(call({ taskId: await seal(task) }, 'tasks/update')), { served: false });
  });
});
