// Legacy HTTP+SSE (2024-11-05): GET the event stream, then POST to the endpoint it names. Every
// server message arrives on that one stream, so any error of it (the SDK's SseError) or of the
// network means the session's stream is gone. Configured headers go on both.
import { SSEClientTransport, SseError } from '@modelcontextprotocol/sdk/client/sse.js';
import { classifyErrors, classifyNetworkError, StreamGoneError } from './stream-gone.js';

export function createSseTransport(url: URL, headers: Record<string, string>): SSEClientTransport {
  return classifyErrors(new SSEClientTransport(url, { requestInit: { headers } }), (err) =>
    err instanceof SseError ? new StreamGoneError(err.message, { cause: err }) : classifyNetworkError(err),
  );
}
