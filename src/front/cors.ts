// CORS for browser-based MCP clients on the origins the operator allows (--cors-origin): the
// request headers MCP uses may be sent (Authorization and the Mcp-* headers, each Mcp-Param-* a
// preflight asks for), and WWW-Authenticate and Mcp-Session-Id may be read. Other origins get no
// CORS headers, so a browser keeps their scripts out.
import type { RequestHandler } from 'express';

const ALLOWED_HEADERS = ['Content-Type', 'Accept', 'Authorization', 'Mcp-Protocol-Version', 'Mcp-Method', 'Mcp-Name', 'Mcp-Session-Id', 'Last-Event-ID'];
const EXPOSED_HEADERS = ['WWW-Authenticate', 'Mcp-Session-Id', 'Mcp-Protocol-Version'];
const METHODS = 'GET, POST, DELETE, OPTIONS';
const PREFLIGHT_MAX_AGE_S = 600;

/** The CORS response headers for a request from `origin` (pure); undefined when it is not allowed. */
export function corsHeaders(
  origin: string | undefined,
  allowed: readonly string[],
  preflight?: { requestedHeaders: string | undefined },
): Record<string, string> | undefined {
  if (origin === undefined || !allowed.includes(origin)) return undefined;
  const base = { 'Access-Control-Allow-Origin': origin, Vary: 'Origin' };
  if (!preflight) return { ...base, 'Access-Control-Expose-Headers': EXPOSED_HEADERS.join(', ') };
  // Mcp-Param-* names depend on the tool; allow exactly the ones the browser asks for.
  const params = (preflight.requestedHeaders ?? '')
    .split(',')
    .map((h) => h.trim())
    .filter((h) => /^mcp-param-[A-Za-z0-9_-]+$/i.test(h));
  return {
    ...base,
    'Access-Control-Allow-Methods': METHODS,
    'Access-Control-Allow-Headers': [...ALLOWED_HEADERS, ...params].join(', '),
    'Access-Control-Max-Age': String(PREFLIGHT_MAX_AGE_S),
  };
}

export function cors(allowed: readonly string[]): RequestHandler {
  return (req, res, next) => {
    const origin = req.header('origin');
    const preflight = req.method === 'OPTIONS' && req.header('access-control-request-method') !== undefined;
    const headers = corsHeaders(origin, allowed, preflight ? { requestedHeaders: req.header('access-control-request-headers') } : undefined);
    if (headers) res.set(headers);
    if (preflight && headers) {
      res.status(204).end();
      return;
    }
    next();
  };
}
