import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { challenge, grantedScopes, missingScopes, readBearer } from '../../src/auth/bearer.js';
import { metadataUrls } from '../../src/auth/discovery.js';
import { metadataUrlOf, resourceMetadata, resourceOf, routeOfMetadataPath, routePath } from '../../src/auth/resource.js';
import { judge } from '../../src/auth/introspection.js';
import { corsHeaders } from '../../src/front/cors.js';
import { admit } from '../../src/auth/token-verifier.js';
import { principalOf, principalTag } from '../../src/state/principal.js';

const META = 'https://p.example/.well-known/oauth-protected-resource/mcp';

describe('readBearer', () => {
  it('reads a bearer token, case-insensitively by scheme', () => {
    assert.deepEqual(readBearer('Bearer abc.def-_~+/='), { kind: 'token', token: 'abc.def-_~+/=' });
    assert.deepEqual(readBearer('bearer  t0k'), { kind: 'token', token: 't0k' });
  });
  it('tells a missing header from a malformed one', () => {
    assert.deepEqual(readBearer(undefined), { kind: 'none' });
    assert.deepEqual(readBearer(' '), { kind: 'none' });
    assert.equal(readBearer('Basic YTpi').kind, 'malformed');
    assert.equal(readBearer('Bearer').kind, 'malformed');
    assert.equal(readBearer('Bearer a b').kind, 'malformed');
    assert.equal(readBearer('Bearer "quoted"').kind, 'malformed');
  });
});

describe('challenge', () => {
  it('gives a request without credentials only the scopes and the metadata pointer', () => {
    assert.equal(challenge({ status: 401, description: 'x' }, META, ['a', 'b']), `Bearer scope="a b", resource_metadata="${META}"`);
    assert.equal(challenge({ status: 401, description: 'x' }, META, []), `Bearer resource_metadata="${META}"`);
  });
  it('names the error, escaping quotes in the description', () => {
    assert.equal(
      challenge({ status: 401, error: 'invalid_token', description: 'the "aud" is wrong' }, META, []),
      `Bearer error="invalid_token", error_description="the \\"aud\\" is wrong", resource_metadata="${META}"`,
    );
  });
  it('names the required scopes on insufficient_scope', () => {
    assert.equal(
      challenge({ status: 403, error: 'insufficient_scope', description: 'd', scopes: ['mcp:tools'] }, META, ['mcp:tools']),
      `Bearer error="insufficient_scope", error_description="d", scope="mcp:tools", resource_metadata="${META}"`,
    );
  });
  it('sends no challenge when the authorization server is unreachable', () => {
    assert.equal(challenge({ status: 503, error: 'temporarily_unavailable', description: 'd' }, META, []), undefined);
  });
});

describe('scopes', () => {
  it('reads `scope` strings and `scp` arrays', () => {
    assert.deepEqual(grantedScopes({ scope: 'a  b' }), ['a', 'b']);
    assert.deepEqual(grantedScopes({ scp: ['a', 1, 'c'] }), ['a', 'c']);
    assert.deepEqual(grantedScopes({}), []);
    assert.deepEqual(missingScopes(['a'], ['a', 'b']), ['b']);
  });
});

describe('admit', () => {
  const route = { issuer: 'https://as.example', scopes: ['mcp:tools'] };
  it('makes issuer and subject the principal', () => {
    const v = admit({ sub: 'u1', scope: 'mcp:tools x', client_id: 'app', exp: 99 }, route);
    assert.deepEqual(v, {
      ok: true,
      caller: { principal: principalOf('https://as.example', 'u1'), clientId: 'app', scopes: ['mcp:tools', 'x'], expiresAt: 99 },
    });
  });
  it('refuses a token without a subject or without a required scope', () => {
    assert.deepEqual(admit({ scope: 'mcp:tools' }, route), {
      ok: false,
      refusal: { status: 401, error: 'invalid_token', description: 'the token names no subject (sub)' },
    });
    const v = admit({ sub: 'u1', scope: 'other' }, route);
    assert.equal(v.ok, false);
    assert.deepEqual(!v.ok && v.refusal, {
      status: 403,
      error: 'insufficient_scope',
      description: 'the token lacks the scope mcp:tools',
      scopes: ['mcp:tools'],
    });
  });
  it('keeps principals of different issuers apart, and hashes them for logs', () => {
    assert.notEqual(principalOf('https://a', 'b c'), principalOf('https://a b', 'c'));
    assert.match(principalTag(principalOf('https://a', 'u')), /^[0-9a-f]{16}$/);
  });
});

describe('discovery and resource metadata', () => {
  it('looks at RFC 8414 first, then OpenID Connect discovery', () => {
    assert.deepEqual(metadataUrls('https://as.example'), [
      'https://as.example/.well-known/oauth-authorization-server',
      'https://as.example/.well-known/openid-configuration',
    ]);
    assert.deepEqual(metadataUrls('https://kc.example/realms/mcp'), [
      'https://kc.example/.well-known/oauth-authorization-server/realms/mcp',
      'https://kc.example/realms/mcp/.well-known/openid-configuration',
      'https://kc.example/.well-known/openid-configuration/realms/mcp',
    ]);
  });
  it('derives each route resource and its metadata URL (RFC 9728 3.1)', () => {
    assert.equal(resourceOf('https://p.example/mcp', routePath('tickets')), 'https://p.example/servers/tickets/mcp');
    assert.equal(metadataUrlOf('https://p.example/servers/tickets/mcp'), 'https://p.example/.well-known/oauth-protected-resource/servers/tickets/mcp');
    assert.deepEqual(routeOfMetadataPath('/.well-known/oauth-protected-resource'), { kind: 'default' });
    assert.deepEqual(routeOfMetadataPath('/.well-known/oauth-protected-resource/mcp'), { kind: 'default' });
    assert.deepEqual(routeOfMetadataPath('/.well-known/oauth-protected-resource/servers/a/mcp'), { kind: 'named', name: 'a' });
    assert.equal(routeOfMetadataPath('/.well-known/oauth-protected-resource/other'), undefined);
    assert.deepEqual(resourceMetadata('https://p.example/mcp', 'https://as', []), {
      resource: 'https://p.example/mcp',
      authorization_servers: ['https://as'],
      bearer_methods_supported: ['header'],
    });
  });
});

describe('judge (introspection answers)', () => {
  const expect = { issuer: 'https://as', audience: 'https://p/mcp' };
  const now = 1_000_000_000_000;
  const reason = (c: Record<string, unknown>) => {
    const r = judge(c, expect, now);
    return r.ok ? `ok ${String(r.claims['sub'])}` : r.refusal.description;
  };
  it('accepts an active token, a client-credentials one by its client id', () => {
    assert.equal(reason({ active: true, sub: 'u', iss: 'https://as', aud: ['https://p/mcp', 'x'], exp: now / 1000 + 10 }), 'ok u');
    assert.equal(reason({ active: true, client_id: 'app' }), 'ok client:app');
  });
  it('refuses inactive, foreign, expired, early and subjectless answers', () => {
    assert.match(reason({ active: false }), /not active/);
    assert.match(reason({ active: true, sub: 'u', iss: 'https://evil' }), /\(iss\)/);
    assert.match(reason({ active: true, sub: 'u', aud: 'https://other/mcp' }), /\(aud\)/);
    assert.match(reason({ active: true, sub: 'u', exp: now / 1000 - 31 }), /expired/);
    assert.match(reason({ active: true, sub: 'u', nbf: now / 1000 + 31 }), /not valid yet/);
    assert.match(reason({ active: true }), /no subject/);
  });
});

describe('corsHeaders', () => {
  const ALLOWED = ['https://app.example'];
  it('exposes WWW-Authenticate and Mcp-Session-Id to an allowed origin only', () => {
    assert.deepEqual(corsHeaders('https://app.example', ALLOWED), {
      'Access-Control-Allow-Origin': 'https://app.example',
      Vary: 'Origin',
      'Access-Control-Expose-Headers': 'WWW-Authenticate, Mcp-Session-Id, Mcp-Protocol-Version',
    });
    assert.equal(corsHeaders('https://evil.example', ALLOWED), undefined);
    assert.equal(corsHeaders(undefined, ALLOWED), undefined);
  });
  it('allows the MCP request headers on a preflight, and exactly the Mcp-Param-* asked for', () => {
    const h = corsHeaders('https://app.example', ALLOWED, { requestedHeaders: 'Mcp-Param-City, x-other, mcp-param-bad value' });
    assert.equal(
      h?.['Access-Control-Allow-Headers'],
      'Content-Type, Accept, Authorization, Mcp-Protocol-Version, Mcp-Method, Mcp-Name, Mcp-Session-Id, Last-Event-ID, Mcp-Param-City',
    );
    assert.equal(h?.['Access-Control-Allow-Methods'], 'GET, POST, DELETE, OPTIONS');
  });
});
