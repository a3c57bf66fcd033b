import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, JSONRPC, ProxyError, UpstreamError, toWireError, type ProxyErrorCode } from '../../src/errors.js';

describe('JSONRPC', () => {
  it('has the standard and 2026-07-28 codes', () => {
    assert.deepEqual(
      { ...JSONRPC },
      { INVALID_REQUEST: -32600, METHOD_NOT_FOUND: -32601, INVALID_PARAMS: -32602, INTERNAL_ERROR: -32603, MISSING_CLIENT_CAPABILITY: -32021 },
    );
  });
});

describe('toWireError', () => {
  const expected: Record<ProxyErrorCode, number> = {
    state_invalid: -32602,
    interaction_gone: -32602,
    input_invalid: -32602,
    capability_missing: -32021,
    upstream_unavailable: -32603,
    upstream_failed: -32603,
    timeout: -32603,
    declined: -32602,
  };

  for (const [code, wire] of Object.entries(expected) as [ProxyErrorCode, number][]) {
    it(`maps ${code} to ${wire}`, () => {
      assert.deepEqual(toWireError(new ProxyError(code, `msg for ${code}`)), { code: wire, message: `msg for ${code}` });
    });
  }

  it('carries data when present', () => {
    const data = { requiredCapabilities: { sampling: {} } };
    assert.deepEqual(toWireError(new ProxyError('capability_missing', 'needs sampling', data)), { code: -32021, message: 'needs sampling', data });
  });

  it('adds no data key when there is none', () => {
    const w = toWireError(new ProxyError('timeout', 't'));
    assert.equal('data' in w, false);
  });

  it('keeps an empty data object', () => {
    assert.deepEqual(toWireError(new ProxyError('input_invalid', 'x', {})), { code: -32602, message: 'x', data: {} });
  });
});

describe('error classes', () => {
  it('ProxyError carries its code, message and data', () => {
    const e = new ProxyError('upstream_failed', 'boom', { a: 1 });
    assert.ok(e instanceof Error);
    assert.equal(e.name, 'ProxyError');
    assert.equal(e.code, 'upstream_failed');
    assert.equal(e.message, 'boom');
    assert.deepEqual(e.data, { a: 1 });
  });

  it('ConfigError is an Error with its own name', () => {
    const e = new ConfigError('bad flag');
    assert.ok(e instanceof Error);
    assert.equal(e.name, 'ConfigError');
    assert.equal(e.message, 'bad flag');
  });

  it('UpstreamError carries the wire error and its message', () => {
    const wire = { code: -32602, message: 'Resource not found', data: { uri: 'file:///x' } };
    const e = new UpstreamError(wire);
    assert.ok(e instanceof Error);
    assert.equal(e.name, 'UpstreamError');
    assert.equal(e.message, 'Resource not found');
    assert.deepEqual(e.wire, wire);
  });
});
