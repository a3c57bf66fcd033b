// Re-statuses whole JSON error bodies from the official handler (see protocol/http-status.ts for
// which codes and why), and tells telemetry the error code. A stream that already started keeps its 200.
import type { McpHttpHandler } from '@modelcontextprotocol/server';
import { errorCodeOf, statusForCode } from '../protocol/http-status.js';
import { recordOfRequest } from './handler-context.js';

export function withErrorStatuses(handler: McpHttpHandler): Pick<McpHttpHandler, 'fetch'> {
  return {
    fetch: async (request, options) => {
      const response = await handler.fetch(request, options);
      if (!(response.headers.get('content-type') ?? '').includes('application/json')) return response;
      const body = await response.text();
      const code = errorCodeOf(body);
      if (code !== undefined) recordOfRequest(request)?.error(code);
      const status = response.status === 200 ? (statusForCode(code) ?? 200) : response.status;
      return new Response(body, { status, headers: response.headers });
    },
  };
}
