// Legacy Streamable HTTP: one legacy session (Mcp-Session-Id) per pooled connection. Nothing from
// the front request (headers, credentials) is passed on: the proxy is its own client upstream,
// with the headers the configuration names for this upstream.
import { StreamableHttpTransport } from './streamable-http-transport.js';

export function createHttpTransport(url: URL, headers: Record<string, string> = {}): StreamableHttpTransport {
  return new StreamableHttpTransport(url, headers);
}
