// A JWT access token checked locally: signature against the issuer's keys, `iss`, `aud`, `exp` and
// `nbf` with a small clock skew, and a subject. Every failure becomes a refusal that says which check
// failed, without echoing the token.
import type { errors as JoseErrors, JWTVerifyGetKey } from 'jose';
import type { Refusal } from './bearer.js';

/** Clock skew tolerated between the issuer and this proxy. */
export const CLOCK_SKEW_S = 30;
/** Only asymmetric signatures: a shared-secret HS256 token could be minted by anyone holding the secret. */
const ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA', 'Ed25519'];

export type JwtOutcome = { ok: true; claims: Record<string, unknown> } | { ok: false; refusal: Refusal };

export async function checkJwt(token: string, keys: JWTVerifyGetKey, expect: { issuer: string; audience: string; now: number }): Promise<JwtOutcome> {
  // Loaded at the first token, not at start (see state/seal.ts).
  const { errors, jwtVerify } = await import('jose');
  try {
    const { payload } = await jwtVerify(token, keys, {
      issuer: expect.issuer,
      audience: expect.audience,
      algorithms: ALGORITHMS,
      clockTolerance: CLOCK_SKEW_S,
      currentDate: new Date(expect.now),
      requiredClaims: ['exp', 'sub'],
    });
    return { ok: true, claims: payload as Record<string, unknown> };
  } catch (err) {
    return { ok: false, refusal: refusalOf(err, errors) };
  }
}

function invalid(description: string): Refusal {
  return { status: 401, error: 'invalid_token', description };
}

function refusalOf(err: unknown, errors: typeof JoseErrors): Refusal {
  if (err instanceof errors.JWTExpired) return invalid('the token has expired');
  if (err instanceof errors.JWTClaimValidationFailed) {
    if (err.claim === 'aud') return invalid('the token is not meant for this resource (aud)');
    if (err.claim === 'iss') return invalid('the token comes from another issuer (iss)');
    if (err.claim === 'nbf') return invalid('the token is not valid yet (nbf)');
    return invalid(`the token's ${err.claim} claim is missing or not accepted`);
  }
  if (err instanceof errors.JWSSignatureVerificationFailed) return invalid('the token signature does not verify');
  if (err instanceof errors.JWKSNoMatchingKey) return invalid('the token is signed with a key the issuer does not publish');
  if (err instanceof errors.JOSEAlgNotAllowed) return invalid('the token is signed with an algorithm that is not accepted');
  if (err instanceof errors.JWSInvalid || err instanceof errors.JWTInvalid) return invalid('the token is not a well-formed JWT');
  if (err instanceof errors.JWKSTimeout || err instanceof errors.JWKSInvalid || !(err instanceof errors.JOSEError)) {
    return { status: 503, error: 'temporarily_unavailable', description: `the issuer's keys cannot be fetched: ${(err as Error).message}` };
  }
  return invalid('the token is not accepted');
}
