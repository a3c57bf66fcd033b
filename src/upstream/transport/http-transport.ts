// Legacy Streamable HTTP: one legacy session (Mcp-Session-Id) per pooled connection. Nothing from
// the front request (headers, credentials) is passed on: the proxy is its own client upstream,
// with the headers the configuration names for this upstream and, with `auth`, its own OAuth token.
import type { UpstreamTarget } from '../../config/types.js';
import { headerSourceFor } from '../client-credentials.js';
import type { UpstreamResources } from '../resources.js';
import { StreamableHttpTransport } from './streamable-http-transport.js';

export function createHttpTransport(target: Extract<UpstreamTarget, { kind: 'http' }>, resources: UpstreamResources): StreamableHttpTransport {
  return new StreamableHttpTransport(target.url, resources.agents, headerSourceFor(target, resources.tokens));
}
