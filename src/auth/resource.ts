// RFC 9728 protected resource metadata, pure: each route's canonical resource identifier (the
// audience its tokens must carry by default), where its metadata document lives, and the document.

export const METADATA_PREFIX = '/.well-known/oauth-protected-resource';

/** `/mcp` is the default upstream's path; `/servers/NAME/mcp` each named one's. */
export function routePath(name: string | undefined): string {
  return name === undefined ? '/mcp' : `/servers/${name}/mcp`;
}

/** The resource identifier of a route: the configured (or listening) origin plus the route's path. */
export function resourceOf(base: string, path: string): string {
  return new URL(path, base).href;
}

/** RFC 9728 3.1: the well-known segment goes between the origin and the resource's path. */
export function metadataUrlOf(resource: string): string {
  const u = new URL(resource);
  return `${u.origin}${METADATA_PREFIX}${u.pathname === '/' ? '' : u.pathname}`;
}

/** The route path a metadata request asks about: `/` and `/mcp` both mean the default route. */
export function routeOfMetadataPath(path: string): { kind: 'default' } | { kind: 'named'; name: string } | undefined {
  if (!path.startsWith(METADATA_PREFIX)) return undefined;
  const rest = path.slice(METADATA_PREFIX.length);
  if (rest === '' || rest === '/' || rest === '/mcp') return { kind: 'default' };
  const m = /^\/servers\/([^/]+)\/mcp$/.exec(rest);
  return m ? { kind: 'named', name: decodeURIComponent(m[1]!) } : undefined;
}

export function resourceMetadata(resource: string, issuer: string, scopes: readonly string[]): Record<string, unknown> {
  return {
    resource,
    authorization_servers: [issuer],
    bearer_methods_supported: ['header'],
    ...(scopes.length > 0 ? { scopes_supported: [...scopes] } : {}),
  };
}
