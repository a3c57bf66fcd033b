// Authorization server metadata from its issuer identifier: RFC 8414 first, OpenID Connect
// Discovery as the fallback (identity providers such as Keycloak publish only the latter). The
// document must name the same issuer (RFC 8414 3.3), or a look-alike server could supply the keys.

export interface IssuerMetadata {
  issuer: string;
  jwks_uri?: string;
  introspection_endpoint?: string;
  token_endpoint?: string;
}

/** Where to look, in order (RFC 8414 3.1 inserts the well-known segment before the issuer's path; OIDC appends it). */
export function metadataUrls(issuer: string): string[] {
  const u = new URL(issuer);
  const path = u.pathname === '/' ? '' : u.pathname.replace(/\/$/, '');
  return [
    `${u.origin}/.well-known/oauth-authorization-server${path}`,
    `${u.origin}${path}/.well-known/openid-configuration`,
    // Some providers also serve the OIDC document at the RFC 8414 position.
    ...(path ? [`${u.origin}/.well-known/openid-configuration${path}`] : []),
  ];
}

export class DiscoveryError extends Error {
  override readonly name = 'DiscoveryError';
}

export async function discoverIssuer(issuer: string, timeoutMs: number, fetchImpl: typeof fetch = fetch): Promise<IssuerMetadata> {
  const tried: string[] = [];
  for (const url of metadataUrls(issuer)) {
    let res: Response;
    try {
      res = await fetchImpl(url, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(timeoutMs), redirect: 'error' });
    } catch (err) {
      tried.push(`${url}: ${(err as Error).message}`);
      continue;
    }
    if (!res.ok) {
      tried.push(`${url}: HTTP ${res.status}`);
      await res.body?.cancel();
      continue;
    }
    const doc = (await res.json().catch(() => undefined)) as Record<string, unknown> | undefined;
    if (!doc || typeof doc !== 'object') {
      tried.push(`${url}: not a JSON object`);
      continue;
    }
    if (doc['issuer'] !== issuer) throw new DiscoveryError(`${url} names issuer '${String(doc['issuer'])}', not '${issuer}'`);
    return {
      issuer,
      ...stringField(doc, 'jwks_uri'),
      ...stringField(doc, 'introspection_endpoint'),
      ...stringField(doc, 'token_endpoint'),
    };
  }
  throw new DiscoveryError(`no authorization server metadata for ${issuer} (${tried.join('; ')})`);
}

function stringField(doc: Record<string, unknown>, key: keyof IssuerMetadata): Partial<IssuerMetadata> {
  const v = doc[key];
  return typeof v === 'string' && v !== '' ? { [key]: v } : {};
}
