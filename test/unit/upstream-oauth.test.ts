import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfigFile } from '../../src/config/file.js';
import { ConfigError } from '../../src/protocol/errors.js';
import { MAX_TOKENS, refreshAfter, TokenCache } from '../../src/upstream/client-credentials.js';
import { writeConfig } from '../support/config.js';

describe('upstream client credentials', () => {
  it('replaces a token in the last fifth of its lifetime, at least 5 s early', () => {
    assert.equal(refreshAfter(3_600_000), 2_880_000);
    assert.equal(refreshAfter(20_000), 15_000);
    assert.equal(refreshAfter(3000), 0);
  });

  it('keeps one token per endpoint, client, scope and resource, keyed without the secret, bounded', () => {
    const cache = new TokenCache();
    const auth = { tokenUrl: 'https://as.example/token', clientId: 'proxy', clientSecret: 'first-secret', scope: 'x' };
    const token = cache.get(auth);
    assert.equal(cache.get({ ...auth }), token, 'the same credentials share one token');
    assert.notEqual(cache.get({ ...auth, scope: 'y' }), token, 'another scope is another token');
    const rotated = cache.get({ ...auth, clientSecret: 'second-secret' });
    assert.notEqual(rotated, token, 'a changed secret (a reload) replaces the token');
    assert.equal(cache.get({ ...auth, clientSecret: 'second-secret' }), rotated);
    assert.equal(cache.size, 2, 'the replaced entry is gone');
    assert.ok(!JSON.stringify([...(cache as unknown as { tokens: Map<string, unknown> }).tokens.keys()]).includes('secret'), 'no key holds the secret');
    for (let i = 0; i < MAX_TOKENS + 10; i++) cache.get({ ...auth, clientId: `c${i}` });
    assert.equal(cache.size, MAX_TOKENS);
  });

  it('reads auth from the file, the secret from the environment', () => {
    const path = writeConfig(`
upstreams:
  a:
    http: { url: "http://127.0.0.1:1/mcp" }
    auth: { tokenUrl: "https://as.example/token", clientId: proxy, clientSecretEnv: A_SECRET, scope: "x y" }
`);
    const target = loadConfigFile(path, { A_SECRET: 's3' }).upstreams[0]!.target;
    assert.deepEqual(target.kind === 'http' && target.oauth, { tokenUrl: 'https://as.example/token', clientId: 'proxy', clientSecret: 's3', scope: 'x y' });
    assert.throws(
      () => loadConfigFile(path, {}),
      (e: unknown) => e instanceof ConfigError && /upstreams\.a\.auth\.clientSecretEnv: environment variable A_SECRET is not set/.test(e.message),
    );
  });

  it('refuses auth on transports it does not apply to', () => {
    const path = writeConfig(`
upstreams:
  a:
    sse: { url: "http://127.0.0.1:1/sse" }
    auth: { tokenUrl: "https://as.example/token", clientId: proxy, clientSecretEnv: A_SECRET }
`);
    assert.throws(
      () => loadConfigFile(path, { A_SECRET: 's' }),
      (e: unknown) => e instanceof ConfigError && /upstreams\.a\.auth: client credentials are supported for http upstreams only/.test(e.message),
    );
  });
});
