// Re-statuses whole JSON error bodies from the official handler (see protocol/http-status.ts for
// which codes and why). A stream that already started keeps its 200.
import type { McpHttpHandler } from '@modelcontextprotocol/server';
import { statusFor } from '../protocol/http-status.js';

export function withErrorStatuses(handler: McpHttpHandler): Pick<McpHttpHandler, 'fetch'> {
  return {
    fetch: async (request, options) => {
      const response = await handler.fetch(request, options);
      if (response.status !== 200 || !(response.headers.get('content-type') ?? '').includes('application/json')) return response;
      const body = await response.text();
      const status = statusFor(body);
      return new Response(body, { status: status ?? response.status, headers: response.headers });
    },
  };
}
