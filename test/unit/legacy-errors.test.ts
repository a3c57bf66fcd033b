import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { LEGACY } from '../../src/protocol/errors.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { classifyFailure, stripSdkPrefix, translateLegacyError } from '../../src/protocol/legacy-errors.js';

describe('stripSdkPrefix', () => {
  it('removes the v1 SDK "MCP error N: " wrapping', () => {
    assert.equal(stripSdkPrefix('MCP error -32602: bad params'), 'bad params');
    assert.equal(stripSdkPrefix('MCP error 42: odd'), 'odd');
    assert.equal(stripSdkPrefix('MCP error -1: '), '');
  });

  it('removes a prefix that is there twice (v1 servers put it on the wire too)', () => {
    assert.equal(stripSdkPrefix('MCP error -32603: MCP error -32603: twice'), 'twice');
    assert.equal(stripSdkPrefix('MCP error -32002: MCP error -32002: Resource not found'), 'Resource not found');
  });

  it('keeps a prefix-like text later in the message', () => {
    assert.equal(stripSdkPrefix('MCP error -1: failed: MCP error -2: inner'), 'failed: MCP error -2: inner');
  });

  it('leaves other messages alone', () => {
    for (const m of ['plain', '', 'error: MCP error -1: x', 'MCP error: no code', 'mcp error -1: lower', 'MCP error -1:no space']) {
      assert.equal(stripSdkPrefix(m), m);
    }
  });
});

describe('translateLegacyError', () => {
  it('exports the legacy codes', () => {
    assert.equal(LEGACY.RESOURCE_NOT_FOUND, -32002);
    assert.equal(LEGACY.URL_ELICITATION_REQUIRED, -32042);
  });

  it('maps -32002 to -32602, keeping data.uri and stripping the prefix', () => {
    const t = translateLegacyError(-32002, 'MCP error -32002: Resource not found', { uri: 'file:///missing' });
    assert.deepEqual(t, { kind: 'error', error: { code: -32602, message: 'Resource not found', data: { uri: 'file:///missing' } } });
  });

  it('maps -32002 without data and adds no data key', () => {
    const t = translateLegacyError(-32002, 'Resource not found', undefined);
    assert.deepEqual(t, { kind: 'error', error: { code: -32602, message: 'Resource not found' } });
    assert.ok(t.kind === 'error' && !('data' in t.error));
  });

  it('turns -32042 with URL elicitations into url_required', () => {
    const e1 = { mode: 'url', elicitationId: 'a', url: 'https://example.com/a', message: 'A' };
    const e2 = { mode: 'url', elicitationId: 'b', url: 'https://example.com/b', message: 'B' };
    const t = translateLegacyError(-32042, 'MCP error -32042: authorization required', { elicitations: [e1, e2] });
    assert.deepEqual(t, { kind: 'url_required', message: 'authorization required', elicitations: [e1, e2] });
  });

  it('keeps only elicitations that carry a string url', () => {
    const good = { url: 'https://example.com', elicitationId: 'g' };
    const t = translateLegacyError(-32042, 'x', { elicitations: [good, null, 'str', { url: 5 }, { elicitationId: 'nourl' }, []] });
    assert.deepEqual(t, { kind: 'url_required', message: 'x', elicitations: [good] });
  });

  it('maps -32042 without usable elicitations into the reserved-range remap', () => {
    for (const data of [undefined, null, 'x', {}, { elicitations: 'no' }, { elicitations: [] }, { elicitations: [{ url: 1 }] }]) {
      const t = translateLegacyError(-32042, 'MCP error -32042: needs url', data);
      assert.equal(t.kind, 'error', JSON.stringify(data));
      if (t.kind !== 'error') continue;
      assert.equal(t.error.code, -32603);
      assert.equal(t.error.message, 'needs url');
      const expected = data === undefined ? { upstreamCode: -32042 } : { upstreamCode: -32042, upstreamData: data };
      assert.deepEqual(t.error.data, expected);
    }
  });

  it('remaps the reserved range -32020..-32099 to -32603 with upstreamCode', () => {
    for (const code of [-32020, -32021, -32050, -32098, -32099]) {
      const t = translateLegacyError(code, `MCP error ${code}: reserved`, undefined);
      assert.deepEqual(t, { kind: 'error', error: { code: -32603, message: 'reserved', data: { upstreamCode: code } } }, String(code));
    }
  });

  it('keeps the upstream data under upstreamData when remapping', () => {
    const t = translateLegacyError(-32030, 'x', { detail: 'why' });
    assert.deepEqual(t, { kind: 'error', error: { code: -32603, message: 'x', data: { upstreamCode: -32030, upstreamData: { detail: 'why' } } } });
    const withNull = translateLegacyError(-32030, 'x', null);
    assert.deepEqual(withNull, { kind: 'error', error: { code: -32603, message: 'x', data: { upstreamCode: -32030, upstreamData: null } } });
  });

  it('passes ordinary codes through, including the edges of the reserved range', () => {
    for (const code of [-32019, -32100, -32000, -32001, -32600, -32601, -32602, -32603, -32700, -1, 0, 1, 42]) {
      const t = translateLegacyError(code, `MCP error ${code}: msg`, { extra: code });
      assert.deepEqual(t, { kind: 'error', error: { code, message: 'msg', data: { extra: code } } }, String(code));
    }
  });

  it('passes ordinary codes through without inventing data', () => {
    const t = translateLegacyError(-32603, 'boom', undefined);
    assert.deepEqual(t, { kind: 'error', error: { code: -32603, message: 'boom' } });
  });
});

describe('classifyFailure (what a failed legacy call means for its front request)', () => {
  it('is lost when the interaction knows the session ended, whatever the error', () => {
    const failure = classifyFailure(new McpError(-32602, 'bad'), 'the child exited with code 1');
    assert.deepEqual(failure, { kind: 'lost', message: 'the legacy server session ended during the call (the child exited with code 1)' });
  });

  it('is lost when the SDK reports the connection closed, or the error is not a JSON-RPC error', () => {
    assert.deepEqual(classifyFailure(new McpError(LEGACY.CONNECTION_CLOSED, 'Connection closed'), undefined), {
      kind: 'lost',
      message: 'the legacy server session ended during the call (connection closed)',
    });
    assert.deepEqual(classifyFailure(new Error('socket hang up'), undefined), {
      kind: 'lost',
      message: 'the legacy server failed during the call: socket hang up',
    });
  });

  it('completes with the translated error otherwise, and turns a URL-elicitation-required error into a round', () => {
    const failure = classifyFailure(new McpError(-32002, 'Resource not found'), undefined);
    assert.deepEqual(failure, translateLegacyError(-32002, new McpError(-32002, 'Resource not found').message, undefined));
    assert.equal(failure.kind, 'error');
    const elicitations = [{ mode: 'url', elicitationId: 'e1', url: 'https://example.com/consent', message: 'Consent' }];
    const url = classifyFailure(new McpError(LEGACY.URL_ELICITATION_REQUIRED, 'visit', { elicitations }), undefined);
    assert.equal(url.kind, 'url_required');
  });
});
