// The errors a 2025-era client gets when a flow on a 2026-07-28 server ends badly: each the proxy
// makes carries its reason and what to do; an unknown fault is answered as the proxy's one encoder
// answers it (logged, nothing of it sent).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ProxyError } from '../../src/protocol/errors.js';
import { ExchangeFailure } from '../../src/relay/modern-exchange.js';
import { ModernFlows } from '../../src/relay/modern-flows.js';
import type { Logger } from '../../src/telemetry/logger.js';

function flows() {
  const sent: Record<string, unknown>[] = [];
  const logged: string[] = [];
  const log = { error: (m: string) => void logged.push(m), warn() {}, info() {}, debug() {} } as unknown as Logger;
  const f = new ModernFlows(async (m) => void sent.push(m as Record<string, unknown>), { maxRounds: 10, flows: { count: 0 }, log });
  return { f, sent, logged };
}

const errorOf = (m: Record<string, unknown> | undefined) => m?.['error'] as { code: number; message: string; data?: { reason?: string; action?: string } };

describe('a flow that ends badly', () => {
  it('answers an upstream that cannot be reached with upstream_unreachable, to retry', async () => {
    const { f, sent } = flows();
    await f.failFor(1, new ExchangeFailure('the upstream is unreachable: ECONNREFUSED', 'upstream_unreachable'));
    assert.deepEqual(errorOf(sent[0]), {
      code: -32603,
      message: 'the upstream is unreachable: ECONNREFUSED',
      data: { reason: 'upstream_unreachable', action: 'retry' },
    });
  });

  it('answers a cut stream with upstream_incomplete (retry) and what is not a response with upstream_invalid (stop)', async () => {
    const { f, sent } = flows();
    await f.failFor(1, new ExchangeFailure('the SSE stream broke before the response', 'upstream_incomplete'));
    await f.failFor(2, new ExchangeFailure('HTTP 404: the body is not JSON', 'upstream_invalid'));
    assert.deepEqual(errorOf(sent[0])?.data, { reason: 'upstream_incomplete', action: 'retry' });
    assert.deepEqual(errorOf(sent[1])?.data, { reason: 'upstream_invalid', action: 'stop' });
  });

  it('passes a ProxyError on with its reason and extra data', async () => {
    const { f, sent } = flows();
    await f.failFor(1, new ProxyError('session_limit', 'subscription_limit', 'a session may subscribe to at most 256 resources'));
    assert.deepEqual(errorOf(sent[0])?.data, { reason: 'subscription_limit', action: 'stop' });
  });

  it('answers an unknown fault as internal, logging it and sending nothing of it', async () => {
    const { f, sent, logged } = flows();
    await f.failFor(1, new TypeError('secret at /srv/x'));
    assert.equal(errorOf(sent[0])?.data?.reason, 'internal');
    assert.doesNotMatch(JSON.stringify(sent[0]), /secret/);
    assert.equal(logged.length, 1);
  });
});
