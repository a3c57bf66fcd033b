// The RFC 6750 wire of a resource server, pure: reading `Authorization: Bearer`, the scopes a token
// grants, and the `WWW-Authenticate` challenge for each way a request can be refused.

export type BearerRead = { kind: 'none' } | { kind: 'malformed'; why: string } | { kind: 'token'; token: string };

/** b64token (RFC 6750 2.1). */
const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;

export function readBearer(header: string | undefined): BearerRead {
  if (header === undefined || header.trim() === '') return { kind: 'none' };
  const m = /^(\S+)\s+(.*)$/.exec(header.trim());
  if (!m || m[1]!.toLowerCase() !== 'bearer') return { kind: 'malformed', why: 'the Authorization header must be `Bearer <token>`' };
  const token = m[2]!.trim();
  if (!B64TOKEN.test(token)) return { kind: 'malformed', why: 'the bearer token has characters a token cannot have' };
  return { kind: 'token', token };
}

/** Why a request is refused. `invalid_request` is a missing-or-malformed credential (no error code on the wire when missing). */
export type Refusal =
  | { status: 401; error?: 'invalid_request' | 'invalid_token'; description: string }
  | { status: 403; error: 'insufficient_scope'; description: string; scopes: string[] }
  | { status: 503; error: 'temporarily_unavailable'; description: string };

function quoted(v: string): string {
  return `"${v.replace(/["\\]/g, '\\$&')}"`;
}

/**
 * The `WWW-Authenticate` value for a refusal. A request without credentials gets only the pointer to
 * the metadata (and the scopes to ask for), so a client can start the authorization flow (RFC 9728 5.1).
 */
export function challenge(refusal: Refusal, metadataUrl: string, requiredScopes: readonly string[]): string | undefined {
  if (refusal.status === 503) return undefined;
  const params: string[] = [];
  if (refusal.error !== undefined) params.push(`error=${quoted(refusal.error)}`, `error_description=${quoted(refusal.description)}`);
  const scopes = refusal.status === 403 ? refusal.scopes : requiredScopes;
  if (scopes.length > 0) params.push(`scope=${quoted(scopes.join(' '))}`);
  params.push(`resource_metadata=${quoted(metadataUrl)}`);
  return `Bearer ${params.join(', ')}`;
}

/** The scopes a token grants: RFC 9068 / RFC 7662 `scope` (space-separated) or the common `scp` array. */
export function grantedScopes(claims: Record<string, unknown>): string[] {
  const { scope, scp } = claims;
  if (typeof scope === 'string') return scope.split(' ').filter(Boolean);
  if (Array.isArray(scp)) return scp.filter((s): s is string => typeof s === 'string');
  if (typeof scp === 'string') return scp.split(' ').filter(Boolean);
  return [];
}

export function missingScopes(granted: readonly string[], required: readonly string[]): string[] {
  const have = new Set(granted);
  return required.filter((s) => !have.has(s));
}
