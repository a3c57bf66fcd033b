// The reverse bridge's envelope: what a 2025-era client declared at initialize, on every 2026-07-28
// request made for it, and the initialize result built from server/discover.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { declarationOf, envelopeFor, initializeResultOf, modernCapabilities } from '../../src/relay/modern-envelope.js';

const initialize = {
  protocolVersion: '2025-06-18',
  clientInfo: { name: 'desktop', version: '1.2' },
  capabilities: { elicitation: { form: {} }, sampling: {}, roots: { listChanged: true }, tasks: { list: {} } },
};

describe('the envelope of a legacy session', () => {
  it('carries the client, its capabilities in their 2026-07-28 form, its log level and the request’s progress token', () => {
    const client = declarationOf(initialize);
    assert.deepEqual(envelopeFor(client, 'warning', 7), {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: 'desktop', version: '1.2' },
      'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} }, sampling: {}, roots: {} },
      'io.modelcontextprotocol/logLevel': 'warning',
      progressToken: 7,
    });
    assert.deepEqual(Object.keys(envelopeFor(client, undefined, { not: 'a token' })).sort(), [
      'io.modelcontextprotocol/clientCapabilities',
      'io.modelcontextprotocol/clientInfo',
      'io.modelcontextprotocol/protocolVersion',
    ]);
  });

  it('declares nothing for a client that declared nothing', () => {
    assert.deepEqual(modernCapabilities(undefined), {});
    assert.deepEqual(declarationOf({}).capabilities, {});
    assert.deepEqual(declarationOf({}).clientInfo, { name: 'unknown', version: '0' });
  });

  it('settles on the revision the client asked for when it is a legacy one, else 2025-11-25', () => {
    assert.equal(declarationOf(initialize).protocolVersion, '2025-06-18');
    assert.equal(declarationOf({ ...initialize, protocolVersion: '2099-01-01' }).protocolVersion, '2025-11-25');
    assert.equal(declarationOf({ ...initialize, protocolVersion: '2026-07-28' }).protocolVersion, '2025-11-25');
  });
});

describe('initializeResultOf', () => {
  const discover = {
    resultType: 'complete',
    supportedVersions: ['2026-07-28'],
    capabilities: { tools: { listChanged: true }, resources: { subscribe: true, listChanged: true }, logging: {}, extensions: { x: {} } },
    instructions: 'Be nice.',
    _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'srv', version: '2' } },
    ttlMs: 1000,
  };

  it('gives the server’s identity and instructions, and only the capabilities the bridge serves', () => {
    assert.deepEqual(initializeResultOf(discover, declarationOf(initialize), 'fallback'), {
      protocolVersion: '2025-06-18',
      capabilities: { tools: { listChanged: true }, resources: { listChanged: true, subscribe: true }, logging: {} },
      serverInfo: { name: 'srv', version: '2' },
      instructions: 'Be nice.',
    });
  });

  it('advertises listChanged and subscribe only where the server announces them', () => {
    const caps = { tools: {}, prompts: { listChanged: false }, resources: { listChanged: true } };
    assert.deepEqual(initializeResultOf({ capabilities: caps }, declarationOf(initialize), 'm')['capabilities'], {
      tools: {},
      prompts: {},
      resources: { listChanged: true },
    });
  });

  it('names the upstream when the server gives no identity', () => {
    assert.deepEqual(initializeResultOf({ capabilities: {} }, declarationOf(initialize), 'migrated').serverInfo, { name: 'migrated', version: '0' });
  });
});
