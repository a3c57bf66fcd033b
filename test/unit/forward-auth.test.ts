// Authentication of forwards between instances: derived from the state key, bound to time, path and body.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { resolveCli } from '../../src/config/resolve.js';
import { forwardKey, signForward, verifyForward } from '../../src/state/forward-auth.js';

const K1 = new Uint8Array(32).fill(1);
const K2 = new Uint8Array(32).fill(2);
const T = 1_800_000_000_000;
const BODY = Buffer.from('{"jsonrpc":"2.0"}');

describe('forward authentication', () => {
  it('derives a key that is not the state key and differs per state key', () => {
    assert.notDeepEqual(new Uint8Array(forwardKey(K1)), K1);
    assert.notDeepEqual(forwardKey(K1), forwardKey(K2));
    assert.deepEqual(forwardKey(K1), forwardKey(new Uint8Array(K1)));
  });

  it('accepts its own signature with any listed key, within a minute, for the same path and body', () => {
    const sig = signForward(forwardKey(K1), T, '/mcp', BODY);
    assert.equal(verifyForward([forwardKey(K2), forwardKey(K1)], sig, T + 59_000, '/mcp', BODY), true);
    assert.equal(verifyForward([forwardKey(K2)], sig, T, '/mcp', BODY), false, 'another key');
    assert.equal(verifyForward([forwardKey(K1)], sig, T + 61_000, '/mcp', BODY), false, 'too old');
    assert.equal(verifyForward([forwardKey(K1)], sig, T, '/servers/x/mcp', BODY), false, 'another path');
    assert.equal(verifyForward([forwardKey(K1)], sig, T, '/mcp', Buffer.from('{}')), false, 'another body');
    for (const bad of [undefined, '', 'x', `${T}.short`, `${T}.${'A'.repeat(43)}`])
      assert.equal(verifyForward([forwardKey(K1)], bad, T, '/mcp', BODY), false, String(bad));
  });
});

describe('--advertise-url', () => {
  const url = (v: string) => {
    const a = resolveCli(['--advertise-url', v, '--', 'srv'], {});
    return (a as Extract<typeof a, { action: 'run' }>).config.advertiseUrl;
  };
  it('takes a base http(s) URL and refuses paths and other schemes', () => {
    assert.equal(url('http://10.0.0.5:8080')?.origin, 'http://10.0.0.5:8080');
    assert.throws(() => url('http://10.0.0.5:8080/mcp'), /without a path/);
    assert.throws(() => url('ftp://x'), /only http and https/);
    assert.throws(() => url('nope'), /is not a URL/);
  });
});
