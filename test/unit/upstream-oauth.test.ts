import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfigFile } from '../../src/config/file.js';
import { ConfigError } from '../../src/protocol/errors.js';
import { refreshAfter } from '../../src/upstream/client-credentials.js';
import { writeConfig } from '../support/config.js';

describe('upstream client credentials', () => {
  it('replaces a token in the last fifth of its lifetime, at least 5 s early', () => {
    assert.equal(refreshAfter(3_600_000), 2_880_000);
    assert.equal(refreshAfter(20_000), 15_000);
    assert.equal(refreshAfter(3000), 0);
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
