import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  ConfigError,
  errorBody,
  JSONRPC,
  LEGACY,
  MODERN_ONLY_CODES,
  ProxyError,
  UpstreamError,
  toWireError,
  type ProxyErrorCode,
} from '../../src/protocol/errors.js';
import { actionOf, REASONS, type ReasonOf } from '../../src/protocol/reasons.js';

describe('JSONRPC', () => {
  it('has the standard and 2026-07-28 codes', () => {
    assert.deepEqual(
      { ...JSONRPC },
      {
        PARSE_ERROR: -32700,
        INVALID_REQUEST: -32600,
        METHOD_NOT_FOUND: -32601,
        INVALID_PARAMS: -32602,
        INTERNAL_ERROR: -32603,
        HEADER_MISMATCH: -32020,
        MISSING_CLIENT_CAPABILITY: -32021,
        UNSUPPORTED_PROTOCOL_VERSION: -32022,
      },
    );
  });

  it('knows the legacy codes it must translate, and which codes only a modern server sends', () => {
    assert.equal(LEGACY.CONNECTION_CLOSED, -32000);
    assert.equal(LEGACY.RESOURCE_NOT_FOUND, -32002);
    assert.equal(LEGACY.URL_ELICITATION_REQUIRED, -32042);
    assert.deepEqual(
      [...MODERN_ONLY_CODES].sort((a, b) => a - b),
      [-32022, -32021, -32020],
    );
  });
});

describe('errorBody', () => {
  it('builds a JSON-RPC error response, with data only when given', () => {
    assert.deepEqual(errorBody(7, -32602, 'bad'), { jsonrpc: '2.0', id: 7, error: { code: -32602, message: 'bad' } });
    assert.deepEqual(errorBody('a', -32603, 'x', { k: 1 }), { jsonrpc: '2.0', id: 'a', error: { code: -32603, message: 'x', data: { k: 1 } } });
  });

  it('answers with id null when the request id is missing or not a valid id', () => {
    for (const id of [undefined, null, {}, [1], true]) assert.equal(errorBody(id, -32700, 'p').id, null);
  });
});

describe('toWireError', () => {
  const expected: Record<ProxyErrorCode, number> = {
    state_invalid: -32602,
    interaction_gone: -32602,
    input_invalid: -32602,
    capability_missing: -32021,
    task_unknown: -32602,
    upstream_unavailable: -32603,
    overloaded: -32603,
    store_unavailable: -32603,
    principal_limit: -32603,
    upstream_failed: -32603,
    timeout: -32603,
    declined: -32602,
    session_limit: -32603,
    internal: -32603,
  };

  for (const [code, wire] of Object.entries(expected) as [ProxyErrorCode, number][]) {
    it(`maps ${code} to ${wire}`, () => {
      const reason = Object.keys(REASONS[code])[0] as ReasonOf<typeof code>;
      const action = actionOf(code, reason);
      assert.deepEqual(toWireError(new ProxyError(...([code, reason, `msg for ${code}`] as [never, never, string]))), {
        code: wire,
        message: `msg for ${code}`,
        data: { reason, action },
      });
    });
  }

  it('carries extra data beside the reason and action', () => {
    const extra = { requiredCapabilities: { sampling: {} } };
    assert.deepEqual(toWireError(new ProxyError('capability_missing', 'capability_undeclared', 'needs sampling', extra)), {
      code: -32021,
      message: 'needs sampling',
      data: { reason: 'capability_undeclared', action: 'stop', ...extra },
    });
  });

  it('always has data with the reason and its action, even without extra data', () => {
    const w = toWireError(new ProxyError('timeout', 'call_timeout', 't'));
    assert.deepEqual(w.data, { reason: 'call_timeout', action: 'stop' });
  });

  it('keeps an empty extra as no extra', () => {
    assert.deepEqual(toWireError(new ProxyError('input_invalid', 'answer_invalid', 'x', {})), {
      code: -32602,
      message: 'x',
      data: { reason: 'answer_invalid', action: 'fix' },
    });
  });
});

describe('error classes', () => {
  it('ProxyError carries its code, message and data', () => {
    const e = new ProxyError('upstream_failed', 'legacy_session_lost', 'boom', { a: 1 });
    assert.ok(e instanceof Error);
    assert.equal(e.name, 'ProxyError');
    assert.equal(e.code, 'upstream_failed');
    assert.equal(e.message, 'boom');
    assert.deepEqual(e.data, { reason: 'legacy_session_lost', action: 'resend', a: 1 });
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
