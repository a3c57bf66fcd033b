// Legacy HTTP+SSE (2024-11-05): GET the event stream, then POST to the endpoint it names. Every
// server message arrives on that one stream. Configured headers go on both.
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';

export function createSseTransport(url: URL, headers: Record<string, string>): SSEClientTransport {
  return new SSEClientTransport(url, { requestInit: { headers } });
}
