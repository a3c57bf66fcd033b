// Several state keys (rotation): --state-key repeated, MRTR_STATE_KEY comma-separated.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { resolveCli } from '../../src/config/resolve.js';

const A = Buffer.alloc(32, 1).toString('base64url');
const B = Buffer.alloc(32, 2).toString('base64url');
const CMD = ['--', 'srv'];
const keysOf = (argv: string[], env: Record<string, string> = {}) => {
  const action = resolveCli(argv, env);
  assert.equal(action.action, 'run');
  return (action as Extract<typeof action, { action: 'run' }>).config.stateKey;
};

describe('state keys for rotation', () => {
  it('takes --state-key several times: the first seals, all open', () => {
    const k = keysOf(['--state-key', A, '--state-key', B, ...CMD]);
    assert.equal(k.generated, false);
    assert.deepEqual(k.bytes, new Uint8Array(Buffer.alloc(32, 1)));
    assert.deepEqual(k.keys, [new Uint8Array(Buffer.alloc(32, 1)), new Uint8Array(Buffer.alloc(32, 2))]);
  });

  it('takes a comma-separated MRTR_STATE_KEY, spaces allowed', () => {
    const k = keysOf(CMD, { MRTR_STATE_KEY: `${B}, ${A}` });
    assert.deepEqual(k.bytes, new Uint8Array(Buffer.alloc(32, 2)));
    assert.equal(k.keys.length, 2);
  });

  it('names which key is wrong without echoing any', () => {
    assert.throws(
      () => keysOf(['--state-key', A, '--state-key', 'short', ...CMD]),
      (e: Error) => e.message.startsWith('--state-key (#2): it decodes to 3 bytes, not 32; expected 32 random bytes in base64url') && !e.message.includes(A),
    );
    assert.throws(
      () => keysOf(CMD, { MRTR_STATE_KEY: `${A},` }),
      (e: Error) => e.message.startsWith('MRTR_STATE_KEY (key #2): empty; expected 32 random bytes') && !e.message.includes(A),
    );
    assert.throws(() => keysOf(['--state-key', A, '--state-key', '', ...CMD]), /--state-key: empty/);
  });
});

describe('--state-store', () => {
  const store = (argv: string[]) => {
    const action = resolveCli([...argv, ...CMD], {});
    return (action as Extract<typeof action, { action: 'run' }>).config.stateStore;
  };

  it('takes redis://HOST:PORT[/DB] and is absent by default (memory)', () => {
    assert.equal(store([]), undefined);
    assert.equal(store(['--state-store', 'redis://127.0.0.1:6380/2'])?.href, 'redis://127.0.0.1:6380/2');
    assert.equal(store(['--state-store', 'redis://cache.internal:6379'])?.hostname, 'cache.internal');
  });

  it('rejects what is not a Redis URL', () => {
    assert.throws(() => store(['--state-store', 'not a url']), /--state-store: not a URL/);
    assert.throws(() => store(['--state-store', 'http://127.0.0.1:6379']), /only redis:\/\/ and rediss:\/\/ are supported, got 'http:'/);
    assert.throws(() => store(['--state-store', 'redis://127.0.0.1:6379/x']), /the path must be a database number, got '\/x'/);
  });
});
