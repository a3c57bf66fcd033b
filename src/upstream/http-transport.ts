// Legacy Streamable HTTP: one legacy session (Mcp-Session-Id) per pooled connection. Nothing from
// the front request (headers, credentials) is passed on: the proxy is its own client upstream,
// with the headers the configuration names for this upstream.
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

export function createHttpTransport(url: URL, headers: Record<string, string> = {}): StreamableHTTPClientTransport {
  return new StreamableHTTPClientTransport(url, {
    requestInit: { headers },
    // A dead upstream should fail the session quickly; the pool replaces it.
    reconnectionOptions: { initialReconnectionDelay: 500, maxReconnectionDelay: 5000, reconnectionDelayGrowFactor: 1.5, maxRetries: 2 },
  });
}
