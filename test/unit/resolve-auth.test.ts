// Client-authentication settings: the --auth-* flags, the file's clientAuth (top level and per
// upstream), and --resource-url, resolved into one ClientAuthConfig per upstream.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { resolveCli } from '../../src/config/resolve.js';
import { ConfigError } from '../../src/protocol/errors.js';
import type { ProxyConfig } from '../../src/config/types.js';
import { writeConfig } from '../support/config.js';

const CMD = ['--', 'node', 'server.js'];

function run(argv: readonly string[]): ProxyConfig {
  const r = resolveCli(argv, {});
  if (r.action !== 'run') assert.fail(`expected run, got ${r.action}`);
  return r.config;
}

function fails(argv: readonly string[], pattern: RegExp): void {
  assert.throws(
    () => resolveCli(argv, {}),
    (err: unknown) => err instanceof ConfigError && pattern.test(err.message),
  );
}

describe('client authentication settings', () => {
  it('takes the introspection endpoint from a flag and its credentials from the environment', () => {
    const r = resolveCli(['--auth-issuer', 'https://as', '--auth-introspection-url', 'https://as/introspect', ...CMD], {
      MRTR_AUTH_CLIENT_ID: 'p',
      MRTR_AUTH_CLIENT_SECRET: 's',
    });
    assert.ok(r.action === 'run');
    assert.equal(r.config.upstreams[0]!.clientAuth?.introspectionUrl, 'https://as/introspect');
    assert.deepEqual(r.config.http.introspectionClient, { clientId: 'p', clientSecret: 's' });
  });

  it('is off without an issuer', () => {
    assert.equal(run(CMD).upstreams[0]!.clientAuth, undefined);
  });

  it('takes issuer, audience, repeated scopes and the resource URL from flags', () => {
    const c = run([
      '--auth-issuer',
      'https://as.example',
      '--auth-audience',
      'api://mcp',
      '--auth-scope',
      'a',
      '--auth-scope',
      'b',
      '--resource-url',
      'https://p.example/mcp',
      ...CMD,
    ]);
    assert.deepEqual(c.upstreams[0]!.clientAuth, { issuer: 'https://as.example', audience: 'api://mcp', scopes: ['a', 'b'] });
    assert.deepEqual(c.http, { resourceUrl: 'https://p.example/mcp', corsOrigins: [], allowedHosts: [], allowedOrigins: [] });
  });

  it('rejects what cannot work, naming the option', () => {
    fails(['--auth-issuer', 'as.example', ...CMD], /--auth-issuer: 'as.example' is not a URL/);
    fails(['--auth-issuer', 'ftp://as.example', ...CMD], /--auth-issuer: must be an http/);
    fails(['--auth-scope', 'a b', '--auth-issuer', 'https://as', ...CMD], /--auth-scope: 'a b' is not a valid OAuth scope/);
    fails(['--auth-scope', 'a', ...CMD], /scopes needs an issuer/);
    fails(['--resource-url', 'https://p.example/other', ...CMD], /--resource-url: must be SCHEME:\/\/HOST\[:PORT\]\/mcp/);
    fails(['--stdio', '--auth-issuer', 'https://as', ...CMD], /--stdio: the caller is the local user; --auth-issuer applies to the HTTP front/);
    fails(
      ['--auth-issuer', 'https://as', '--auth-introspection-url', 'https://as/introspect', ...CMD],
      /needs the proxy's client credentials in MRTR_AUTH_CLIENT_ID and MRTR_AUTH_CLIENT_SECRET/,
    );
  });

  it('merges the file: top level, then each upstream, then flags', () => {
    const path = writeConfig(`
clientAuth: { issuer: "https://as.example", scopes: [mcp] }
resourceUrl: "https://p.example/mcp"
upstreams:
  a: { stdio: { command: node }, clientAuth: { scopes: [tickets] } }
  b: { stdio: { command: node } }
  c: { stdio: { command: node }, clientAuth: { issuer: "https://other.example", audience: c-api } }
`);
    const [a, b, cc] = run(['--config', path]).upstreams;
    assert.deepEqual(a!.clientAuth, { issuer: 'https://as.example', scopes: ['tickets'] });
    assert.deepEqual(b!.clientAuth, { issuer: 'https://as.example', scopes: ['mcp'] });
    assert.deepEqual(cc!.clientAuth, { issuer: 'https://other.example', audience: 'c-api', scopes: ['mcp'] });
    const flagged = run(['--config', path, '--auth-scope', 'x']).upstreams;
    assert.deepEqual(
      flagged.map((u) => u.clientAuth?.scopes),
      [['x'], ['x'], ['x']],
    );
    assert.equal(run(['--config', path]).http.resourceUrl, 'https://p.example/mcp');
  });

  it('names the field of a bad clientAuth in the file', () => {
    const path = writeConfig(`
upstreams:
  a: { stdio: { command: node }, clientAuth: { issuer: "nope" } }
`);
    fails(['--config', path], /upstreams\.a\.clientAuth\.issuer: must be an http/);
  });
});

describe('front-door settings', () => {
  it('takes CORS origins, allowed hosts and origins, and a TLS pair', () => {
    const c = run(['--cors-origin', 'https://app.example', '--allowed-host', 'MCP.example.com', '--allowed-origin', 'http://localhost:3000', ...CMD]);
    assert.deepEqual(c.http, { corsOrigins: ['https://app.example'], allowedHosts: ['mcp.example.com'], allowedOrigins: ['http://localhost:3000'] });
    const here = process.argv[1]!;
    assert.deepEqual(run(['--tls-cert', here, '--tls-key', here, ...CMD]).http.tls, { certFile: here, keyFile: here });
  });

  it('rejects what cannot work, naming the option', () => {
    fails(['--cors-origin', 'https://app.example/', ...CMD], /--cors-origin: 'https:\/\/app.example\/' is not an origin/);
    fails(['--allowed-origin', 'app.example', ...CMD], /--allowed-origin: 'app.example' is not an origin/);
    fails(['--allowed-host', 'mcp.example.com:443', ...CMD], /--allowed-host: 'mcp.example.com:443' is not a host name/);
    fails(['--tls-cert', 'a.pem', ...CMD], /--tls-cert and --tls-key go together/);
    fails(['--tls-cert', '/nonexistent.pem', '--tls-key', '/nonexistent.key', ...CMD], /--tls-cert: cannot read \/nonexistent.pem: ENOENT/);
    fails(['--stdio', '--cors-origin', 'https://a.example', ...CMD], /--stdio: .* --cors-origin applies to the HTTP front/);
  });

  it('refuses a non-loopback address without client authentication unless told to', () => {
    fails(['--host', '0.0.0.0', ...CMD], /--host 0.0.0.0 is not loopback and upstream default has no client authentication/);
    assert.equal(run(['--host', '0.0.0.0', '--insecure-no-auth', ...CMD]).host, '0.0.0.0');
    assert.equal(run(['--host', '0.0.0.0', '--auth-issuer', 'https://as.example', ...CMD]).host, '0.0.0.0');
    assert.equal(run(['--host', '::1', ...CMD]).host, '::1');
  });
});
