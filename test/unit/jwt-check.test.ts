// The local JWT checks against a key set and a fixed clock: every claim rule, and what is refused.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createLocalJWKSet, exportJWK, generateKeyPair, SignJWT } from 'jose';
import { CLOCK_SKEW_S, checkJwt } from '../../src/auth/jwt-check.js';

const NOW = Date.UTC(2026, 6, 28) / 1000;
const ISS = 'https://as.example';
const AUD = 'https://p.example/mcp';

const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
const other = await generateKeyPair('ES256', { extractable: true });
const keys = createLocalJWKSet({ keys: [{ ...(await exportJWK(publicKey)), kid: 'k1', alg: 'ES256' }] });

async function token(claims: Record<string, unknown> = {}, opts: { key?: typeof privateKey; kid?: string } = {}): Promise<string> {
  return new SignJWT({ iss: ISS, aud: AUD, sub: 'u1', exp: NOW + 60, iat: NOW, ...claims })
    .setProtectedHeader({ alg: 'ES256', kid: opts.kid ?? 'k1', typ: 'at+jwt' })
    .sign(opts.key ?? privateKey);
}

async function reason(t: string, at = NOW): Promise<string> {
  const r = await checkJwt(t, keys, { issuer: ISS, audience: AUD, now: at * 1000 });
  return r.ok ? 'ok' : `${r.refusal.status} ${r.refusal.description}`;
}

describe('checkJwt', () => {
  it('accepts a token for this resource from this issuer', async () => {
    const r = await checkJwt(await token({ scope: 's' }), keys, { issuer: ISS, audience: AUD, now: NOW * 1000 });
    assert.ok(r.ok);
    assert.equal(r.claims['scope'], 's');
  });
  it('refuses wrong audience, issuer, expiry and not-before, with the skew tolerated', async () => {
    assert.match(await reason(await token({ aud: 'https://elsewhere/mcp' })), /^401 .*\(aud\)/);
    assert.match(await reason(await token({ iss: 'https://evil.example' })), /^401 .*\(iss\)/);
    assert.match(await reason(await token({ exp: NOW - CLOCK_SKEW_S - 1 })), /^401 the token has expired/);
    assert.equal(await reason(await token({ exp: NOW - CLOCK_SKEW_S + 5 })), 'ok');
    assert.match(await reason(await token({ nbf: NOW + CLOCK_SKEW_S + 5 })), /^401 .*\(nbf\)/);
    assert.equal(await reason(await token({ nbf: NOW + CLOCK_SKEW_S - 5 })), 'ok');
  });
  it('refuses tokens without exp or sub, with a bad signature, an unknown key or a shared-secret algorithm', async () => {
    assert.match(await reason(await token({ exp: undefined })), /^401 .*exp/);
    assert.match(await reason(await token({ sub: undefined })), /^401 .*sub/);
    assert.match(await reason(await token({}, { key: other.privateKey })), /^401 .*signature/);
    assert.match(await reason(await token({}, { key: other.privateKey, kid: 'k9' })), /^401 .*key the issuer does not publish/);
    const hs = await new SignJWT({ iss: ISS, aud: AUD, sub: 'u1', exp: NOW + 60 }).setProtectedHeader({ alg: 'HS256', kid: 'k1' }).sign(new Uint8Array(32));
    assert.match(await reason(hs), /^401 .*algorithm/);
  });
});
