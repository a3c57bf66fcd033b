// The drain gate's decisions: what it waits for, per upstream and up to each one's timeout, and what
// a request gets once draining. Plain request/response objects stand in for express's.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import type { Request, Response } from 'express';
import { DrainGate, SHUTTING_DOWN } from '../../src/front/drain.js';
import { systemClock } from '../../src/clock.js';

function request(method: string, mcpMethod?: string): Request {
  return { method, get: (h: string) => (h.toLowerCase() === 'mcp-method' ? mcpMethod : undefined) } as unknown as Request;
}

function response(): Response & { sent?: { status: number; body: unknown } } {
  const res = new EventEmitter() as EventEmitter & { sent?: { status: number; body: unknown }; statusCode: number };
  res.statusCode = 200;
  return Object.assign(res, {
    status(code: number) {
      res.statusCode = code;
      return this;
    },
    set() {
      return this;
    },
    json(body: unknown) {
      res.sent = { status: res.statusCode, body };
      return this;
    },
  }) as never;
}

describe('DrainGate', () => {
  it('counts POSTs, not GET streams or subscriptions/listen', () => {
    const gate = new DrainGate();
    assert.ok(gate.admit('a', request('POST', 'tools/call'), response(), undefined));
    assert.ok(gate.admit('a', request('GET'), response(), undefined));
    assert.ok(gate.admit('a', request('POST', 'subscriptions/listen'), response(), undefined));
    assert.equal(gate.runningCount('a'), 1);
  });

  it('answers 503 with the request id once draining', async () => {
    const gate = new DrainGate();
    await gate.drain(() => 0, systemClock);
    const res = response();
    assert.equal(gate.admit('a', request('POST', 'tools/call'), res, { jsonrpc: '2.0', id: 7, method: 'tools/call' }), false);
    assert.equal(res.sent?.status, 503);
    assert.deepEqual((res.sent!.body as { id: unknown }).id, 7);
    assert.equal(gate.isDraining, true);
  });

  it('says why and what to do: shutting_down, retry elsewhere or later', async () => {
    const gate = new DrainGate();
    await gate.drain(() => 0, systemClock);
    const res = response();
    gate.admit('a', request('POST', 'tools/call'), res, { jsonrpc: '2.0', id: 7, method: 'tools/call' });
    assert.deepEqual((res.sent!.body as { error: unknown }).error, {
      code: -32603,
      message: SHUTTING_DOWN,
      data: { reason: 'shutting_down', action: 'retry' },
    });
  });

  it('resolves when the running requests close, and gives up on each upstream after its own timeout', async () => {
    const gate = new DrainGate();
    const quick = response();
    const stuck = response();
    gate.admit('fast', request('POST', 'tools/call'), quick, undefined);
    gate.admit('slow', request('POST', 'tools/call'), stuck, undefined);
    const started = Date.now();
    const drained = gate.drain((name) => (name === 'fast' ? 60_000 : 150), systemClock);
    setTimeout(() => quick.emit('close'), 20);
    assert.equal(await drained, 1, 'the stuck request is still running');
    const took = Date.now() - started;
    assert.ok(took >= 140 && took < 5000, `took ${took} ms`);
    stuck.emit('close');
    assert.equal(gate.runningCount(), 0);
  });
});
