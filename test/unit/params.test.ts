import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { upstreamParams } from '../../src/protocol/params.js';

describe('upstreamParams', () => {
  it('passes undefined through', () => {
    assert.equal(upstreamParams(undefined), undefined);
  });

  it('keeps ordinary params unchanged', () => {
    const params = { name: 'weather', arguments: { city: 'Paris', nested: { _meta: 'kept inside arguments' } } };
    assert.deepEqual(upstreamParams(params), params);
    assert.deepEqual(upstreamParams({}), {});
  });

  it('drops inputResponses and requestState', () => {
    const out = upstreamParams({ name: 't', arguments: {}, inputResponses: { 'elicitation-1': { action: 'accept' } }, requestState: 'tok' });
    assert.deepEqual(out, { name: 't', arguments: {} });
  });

  it('strips io.modelcontextprotocol/* _meta keys and progressToken, keeping vendor keys and trace context', () => {
    const out = upstreamParams({
      name: 't',
      _meta: {
        progressToken: 'p-1',
        'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
        'io.modelcontextprotocol/clientInfo': { name: 'c', version: '1' },
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/related-task': { taskId: 'x' },
        'com.example/tenant': 'acme',
        traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
        tracestate: 'congo=t61rcWkgMzE',
        baggage: 'k=v',
      },
    });
    assert.deepEqual(out, {
      name: 't',
      _meta: {
        'com.example/tenant': 'acme',
        traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
        tracestate: 'congo=t61rcWkgMzE',
        baggage: 'k=v',
      },
    });
  });

  it('only strips the exact io.modelcontextprotocol/ prefix', () => {
    const meta = { 'io.modelcontextprotocol': 1, 'io.modelcontextprotocol.x/y': 2, 'x/io.modelcontextprotocol/y': 3, progresstoken: 4 };
    assert.deepEqual(upstreamParams({ _meta: { ...meta, 'io.modelcontextprotocol/a': 0 } }), { _meta: meta });
  });

  it('drops _meta that ends up empty', () => {
    const out = upstreamParams({ name: 't', _meta: { progressToken: 1, 'io.modelcontextprotocol/clientInfo': {} } });
    assert.deepEqual(out, { name: 't' });
    assert.equal(out !== undefined && '_meta' in out, false);
    assert.deepEqual(upstreamParams({ name: 't', _meta: {} }), { name: 't' });
  });

  it('drops _meta that is not an object', () => {
    for (const meta of [null, 'x', 1, true]) {
      assert.deepEqual(upstreamParams({ name: 't', _meta: meta }), { name: 't' }, String(meta));
    }
  });

  it('does not mutate the front params', () => {
    const params = { name: 't', requestState: 's', inputResponses: {}, _meta: { progressToken: 1, 'io.modelcontextprotocol/x': 1, keep: 1 } };
    const copy = structuredClone(params);
    const out = upstreamParams(params);
    assert.deepEqual(params, copy);
    assert.notEqual(out, params);
    assert.notEqual(out?.['_meta'], params._meta);
  });
});
