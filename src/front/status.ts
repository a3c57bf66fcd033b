// HTTP status for errors the front's handlers produce. The SDK maps its own gate rejections
// (headers, envelope, version) to 400/404, but any error a handler returns goes out as 200. The
// 2026-07-28 HTTP binding wants 404 for an unknown method (here: one the legacy server does not
// know) and 400 for a missing client capability, so those two are re-statused. Only whole JSON
// bodies are inspected; a stream that already started keeps its 200.
import type { McpHttpHandler } from '@modelcontextprotocol/server';

const STATUS_FOR_CODE: Record<number, number> = { [-32601]: 404, [-32021]: 400 };

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

export function statusFor(body: string): number | undefined {
  try {
    const code = (JSON.parse(body) as { error?: { code?: unknown } }).error?.code;
    return typeof code === 'number' ? STATUS_FOR_CODE[code] : undefined;
  } catch {
    return undefined;
  }
}
