// The front door's authentication, mounted before the MCP routes: RFC 9728 metadata documents, and
// the bearer check on `/mcp` and `/servers/NAME/mcp` for every route configured with client
// authentication (both eras: the legacy-client path is behind the same check). A caller that passes
// is handed to the route as the SDK's `req.auth`, carrying the principal and never the token.
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { AuthInfo } from '@modelcontextprotocol/server';
import { challenge, readBearer, type Refusal } from '../auth/bearer.js';
import { metadataUrlOf, resourceMetadata, resourceOf, routeOfMetadataPath, routePath } from '../auth/resource.js';
import type { RouteAuth, TokenVerifier } from '../auth/token-verifier.js';
import type { ClientAuthConfig } from '../config/types.js';
import type { RouteTable } from '../routing/route.js';
import { principalTag } from '../state/principal.js';
import type { Logger } from '../telemetry/logger.js';

/** Where the principal travels on `req.auth.extra`. */
export const PRINCIPAL_KEY = 'principal';

export interface AuthGate {
  middleware: RequestHandler;
  /** The listener's own /mcp URL, the resource base when no --resource-url is configured. */
  listening(url: string): void;
}

export function createAuthGate(table: RouteTable, resourceUrl: string | undefined, verifier: TokenVerifier, log: Logger): AuthGate {
  let base = resourceUrl;
  /** The route a request path serves, with the path that names its resource. */
  function routeAt(path: string): { name: string | undefined; path: string } | undefined {
    if (path === '/mcp') return { name: table.defaultName, path };
    const m = /^\/servers\/([^/]+)\/mcp$/.exec(path);
    return m ? { name: decodeURIComponent(m[1]!), path } : undefined;
  }
  function authOf(name: string | undefined): ClientAuthConfig | undefined {
    return name === undefined ? undefined : table.get(name)?.config.clientAuth;
  }

  function metadata(req: Request, res: Response): boolean {
    const which = routeOfMetadataPath(req.path);
    if (!which || base === undefined) return false;
    const name = which.kind === 'default' ? table.defaultName : which.name;
    const auth = authOf(name);
    if (!auth) {
      res.status(404).json({ error: 'not_found', error_description: 'this path is not a protected resource of the proxy' });
      return true;
    }
    const resource = resourceOf(base, which.kind === 'default' ? '/mcp' : routePath(which.name));
    res.json(resourceMetadata(resource, auth.issuer, auth.scopes));
    return true;
  }

  async function check(req: Request, res: Response, next: NextFunction): Promise<void> {
    if (req.method === 'GET' && metadata(req, res)) return;
    const at = routeAt(req.path);
    const auth = at && authOf(at.name);
    if (!at || !auth || base === undefined) return next();
    const resource = resourceOf(base, at.path);
    const route: RouteAuth = { ...auth, audience: auth.audience ?? resource };
    const refuse = (refusal: Refusal) => {
      const header = challenge(refusal, metadataUrlOf(resource), route.scopes);
      if (header !== undefined) res.setHeader('WWW-Authenticate', header);
      log.debug('client refused', { path: at.path, status: refusal.status, reason: refusal.description });
      const body =
        refusal.error === undefined
          ? { error: 'invalid_request', error_description: refusal.description }
          : { error: refusal.error, error_description: refusal.description };
      res.status(refusal.status).json(body);
    };
    const bearer = readBearer(req.header('authorization'));
    if (bearer.kind === 'none') return refuse({ status: 401, description: 'this endpoint needs a bearer token' });
    if (bearer.kind === 'malformed') return refuse({ status: 401, error: 'invalid_request', description: bearer.why });
    const verdict = await verifier.verify(bearer.token, route);
    if (!verdict.ok) return refuse(verdict.refusal);
    const { caller } = verdict;
    const info: AuthInfo = {
      // The token stops here: nothing behind the gate needs it, and nothing may pass it upstream.
      token: '',
      clientId: caller.clientId,
      scopes: caller.scopes,
      ...(caller.expiresAt === undefined ? {} : { expiresAt: caller.expiresAt }),
      resource: new URL(resource),
      extra: { [PRINCIPAL_KEY]: caller.principal },
    };
    (req as Request & { auth?: AuthInfo }).auth = info;
    log.debug('client authenticated', { path: at.path, principal: principalTag(caller.principal) });
    next();
  }

  return {
    middleware: (req, res, next) => void check(req, res, next).catch(next),
    listening(url) {
      base ??= url;
    },
  };
}

/** The principal the gate put on a request, if any. */
export function principalOfRequest(req: object): string | undefined {
  const p = (req as { auth?: AuthInfo }).auth?.extra?.[PRINCIPAL_KEY];
  return typeof p === 'string' ? p : undefined;
}
