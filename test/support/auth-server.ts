// A real OAuth 2.1 authorization server for tests: panva's oidc-provider on a free 127.0.0.1 port,
// issuing access tokens by client credentials. With a resource indicator (RFC 8707) it issues a
// JWT for that resource; without one an opaque token (for introspection). `rotateKey()` replaces
// its signing key (new `kid`) the way an identity provider rotates; `hideRfc8414()` leaves only
// OpenID Connect discovery, as some providers do.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
import Provider from 'oidc-provider';

export interface TestClient {
  clientId: string;
  clientSecret: string;
  /** Space-separated scopes the client may ask for. */
  scope: string;
}

export const SCOPES = ['mcp:tools', 'mcp:admin', 'upstream:read'];

export interface AuthServer {
  issuer: string;
  /** A fresh access token by client credentials (JWT when `resource` is given). */
  token(client: TestClient, opts?: { resource?: string; scope?: string }): Promise<{ access_token: string; expires_in: number }>;
  rotateKey(): Promise<void>;
  hideRfc8414(): void;
  close(): Promise<void>;
}

async function signingKey(kid: string): Promise<Record<string, unknown>> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  return { ...(await exportJWK(privateKey)), kid, alg: 'RS256', use: 'sig' };
}

export async function startAuthServer(clients: TestClient[], opts: { accessTokenTtlS?: number } = {}): Promise<AuthServer> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let generation = 0;
  let hidden = false;

  const build = async () =>
    new Provider(issuer, {
      clients: clients.map((c) => ({
        client_id: c.clientId,
        client_secret: c.clientSecret,
        grant_types: ['client_credentials'],
        redirect_uris: [],
        response_types: [],
        scope: c.scope,
      })),
      jwks: { keys: [await signingKey(`key-${++generation}`)] },
      scopes: SCOPES,
      ttl: { ClientCredentials: opts.accessTokenTtlS ?? 300 },
      features: {
        devInteractions: { enabled: false },
        clientCredentials: { enabled: true },
        introspection: { enabled: true, allowedPolicy: () => true },
        resourceIndicators: {
          enabled: true,
          defaultResource: () => undefined,
          useGrantedResource: () => true,
          getResourceServerInfo: (_ctx: unknown, resource: string) => ({
            scope: SCOPES.join(' '),
            audience: resource,
            accessTokenFormat: 'jwt',
            accessTokenTTL: opts.accessTokenTtlS ?? 300,
            jwt: { sign: { alg: 'RS256' } },
          }),
        },
      },
    });
  let handler = (await build()).callback();
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (hidden && req.url?.startsWith('/.well-known/oauth-authorization-server')) {
      res.writeHead(404).end();
      return;
    }
    handler(req, res);
  });

  return {
    issuer,
    async token(client, o = {}) {
      const body = new URLSearchParams({ grant_type: 'client_credentials', scope: o.scope ?? client.scope });
      if (o.resource) body.set('resource', o.resource);
      const res = await fetch(`${issuer}/token`, {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`${client.clientId}:${client.clientSecret}`).toString('base64')}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body,
      });
      const json = (await res.json()) as { access_token: string; expires_in: number };
      if (!res.ok) throw new Error(`token request failed: ${res.status} ${JSON.stringify(json)}`);
      return json;
    },
    async rotateKey() {
      handler = (await build()).callback();
    },
    hideRfc8414() {
      hidden = true;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
